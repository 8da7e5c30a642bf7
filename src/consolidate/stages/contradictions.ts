import { sharedFrames } from '../../similarity/claims.js';
import { claimsOf, newConflictStats, noteClauses, noteConflicts, type NoteClauses } from '../../similarity/conflict.js';
import { visitRareTerms } from '../../similarity/features.js';
import { defineStage, type ItemDraft, type StageContext } from '../stage.js';

const DATED = /(?:^|[^\d])20\d{2}[-_.]?\d{2}[-_.]?\d{2}(?:[^\d]|$)/;

/** Rare terms (few notes use them) are what a subject is made of. */
function rareTermPairs(ctx: StageContext): Set<number> {
  const n = ctx.features.length;
  const maxDf = Math.max(2, Math.min(25, Math.ceil(n * 0.02)));
  const out = new Set<number>();
  // The pairs in the order rareTermCounts' map holds them, without the map (~500 k pairs at hard 10k).
  visitRareTerms(ctx.features, maxDf, (a, b, count) => {
    if (count >= 3 || (count >= 2 && ctx.features[a]!.note.meta.type === ctx.features[b]!.note.meta.type))
      out.add(a * n + b);
  });
  return out;
}

export default defineStage({
  id: 'contradictions',
  description:
    'Notes on one subject (shared rare terms, or near-duplicates) whose sentences conflict: polarity, values, replaced tools.',
  run(ctx) {
    const n = ctx.features.length;
    const candidates = rareTermPairs(ctx);
    for (const p of ctx.pairs) if (p.jaccard >= 0.2 || p.containment >= 0.4) candidates.add(p.a * n + p.b);
    const views = new Map<number, NoteClauses>();
    const viewsOf = (i: number): NoteClauses => {
      let v = views.get(i);
      if (!v) {
        v = noteClauses(ctx.features[i]!.note);
        views.set(i, v);
      }
      return v;
    };
    const stats = newConflictStats();
    const items: ItemDraft[] = [];
    // A dated log (session note) records a moment: what it says differently from another note is
    // history, not a contradiction. Stale one-off logs are the incident stage's business.
    // Each note's path tested once (not twice per pair); the pair codes sorted as numbers, natively.
    const dated = ctx.features.map((f) => DATED.test(f.note.path));
    const pairs = Array.from(Float64Array.from(candidates).sort()).filter(
      (key) => !dated[Math.floor(key / n)] && !dated[key % n],
    );
    // Every compared note's claims first (once per note), then which of their frames another note shares.
    const compared = new Set<number>();
    for (const key of pairs) compared.add(Math.floor(key / n)).add(key % n);
    const order = [...compared].sort((x, y) => x - y);
    const slot = new Map(order.map((i, k) => [i, k]));
    // Each note's frames that one of its partners has too (not any compared note: those grow with the vault).
    const shared = sharedFrames(
      order.map((i) => claimsOf(viewsOf(i)).frames),
      pairs.map((key) => [slot.get(Math.floor(key / n))!, slot.get(key % n)!] as const),
    );
    for (const key of pairs) {
      const a = Math.floor(key / n),
        b = key % n;
      const found = noteConflicts(viewsOf(a), viewsOf(b), 3, stats, shared).map((f) => ({
        kind: f.conflict.kind,
        detail: f.conflict.detail,
        a: { line: f.a.line, text: f.a.text },
        b: { line: f.b.line, text: f.b.text },
      }));
      if (found.length === 0) continue;
      const na = ctx.features[a]!.note,
        nb = ctx.features[b]!.note;
      items.push({
        kind: 'contradiction',
        paths: [na.path, nb.path],
        evidence: { conflicts: found },
        suggestion: 'review',
        action: { type: 'keep' },
      });
    }
    ctx.summary.contradictionCandidatePairs = stats.candidatePairs;
    ctx.summary.sentenceComparisons = stats.sentenceComparisons;
    return items;
  },
});
