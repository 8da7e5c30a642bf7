import { HOW, WHY } from '../../rules/note/missing-rationale.js';
import { citations } from '../citations.js';
import { defineStage, type ItemDraft } from '../stage.js';

const DATE = /\b(20\d{2})[-_./](\d{2})[-_./](\d{2})\b/;
const INCIDENT =
  /\b(bug|incident|outage|crash(?:ed|es)?|broke(?:n)?|fail(?:ed|ure)?|error|hot-?fix|fixed|rollback|rolled back|post-?mortem|root cause|regression|went down|down for)\b/gi;
const PAST =
  /\b(was|were|had|did|broke|went|happened|caused|fixed|crashed|failed|deleted|restored|found|turned out|ran|took|got)\b|\b\w{3,}ed\b/gi;
/** Notes that are never an incident to retire: kept knowledge, standing rules, decisions and who the user is. */
const KEPT_TYPES = new Set(['reference', 'user', 'feedback', 'decision']);
const GENERAL = /\b(always|never|whenever|every time|from now on|in future|going forward|rule)\b/i;

export default defineStage({
  id: 'incidents',
  description:
    'Notes that record one dated event and never generalized it: dated, past-tense incident narrative, no rationale ("Why" / "How to apply"), not a reference or user note, nothing links or cites them (no note, no front matter, no index, no secondary index), nothing similar.',
  run(ctx) {
    // Links and mentions from every index (MEMORY.md and secondary indexes) count, as links from notes do.
    const fromIndexes = new Map<string, number>();
    for (const f of [ctx.vault.index, ...ctx.vault.secondaryIndexes]) {
      if (!f) continue;
      for (const t of new Set(f.links.map((l) => l.resolved).filter((r): r is string => r !== null)))
        fromIndexes.set(t, (fromIndexes.get(t) ?? 0) + 1);
    }
    // Front-matter references (`relates_to: [this_note.md]`) are citations too: retiring would orphan them.
    // A note its front matter marks superseded is already handled the owner's way (kept on disk, out of the index).
    const { citedBy, supersededBy } = citations(ctx.vault);
    const similar = new Set<number>();
    for (const p of ctx.pairs)
      if (p.jaccard >= 0.3 || p.containment >= 0.5) {
        similar.add(p.a);
        similar.add(p.b);
      }
    const items: ItemDraft[] = [];
    ctx.features.forEach((f, i) => {
      const note = f.note;
      const body = note.text.slice(note.bodyOffset);
      const date = DATE.exec(note.path) ?? DATE.exec(body) ?? DATE.exec(note.meta.description ?? '');
      if (!date) return;
      if (KEPT_TYPES.has(note.meta.type ?? '') || supersededBy.has(note.path)) return;
      if (WHY.test(body) || HOW.test(body) || GENERAL.test(body)) return;
      // Links from other notes or any index mean the event is still pointed at.
      if (
        (ctx.inbound.get(note.path) ?? 0) > 0 ||
        (fromIndexes.get(note.path) ?? 0) > 0 ||
        (citedBy.get(note.path)?.size ?? 0) > 0 ||
        similar.has(i)
      )
        return;
      const incidentWords = [...new Set((body.match(INCIDENT) ?? []).map((w) => w.toLowerCase()))];
      const pastTense = (body.match(PAST) ?? []).length;
      if (incidentWords.length < 1 || pastTense < 2) return;
      items.push({
        kind: 'incident',
        paths: [note.path],
        evidence: {
          date: date[0],
          incidentWords,
          pastTenseVerbs: pastTense,
          howToApply: false,
          inboundLinks: 0,
          similarNotes: 0,
        },
        suggestion: 'retire',
        action: { type: 'retire', retire: [note.path] },
      });
    });
    return items;
  },
});
