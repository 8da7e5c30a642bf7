import { pairSharedFrames } from '../../similarity/claims.js';
import { compactNoteClauses, newConflictStats, noteConflicts, type NoteClauses } from '../../similarity/conflict.js';
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
        v = compactNoteClauses(ctx.features[i]!.note);
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
    // A note's view (its sentences and claims) is made at its first pair and dropped after its last: the pairs are
    // compared in order, and the frames two notes share are found per pair (pairSharedFrames), so no table of every
    // compared note's claims is needed (they were all held to the stage's end: hard 100k ran out of heap here).
    const lastPair = new Map<number, number>();
    pairs.forEach((key, p) => lastPair.set(Math.floor(key / n), p).set(key % n, p));
    for (let p = 0; p < pairs.length; p++) {
      const key = pairs[p]!;
      const a = Math.floor(key / n),
        b = key % n;
      const conflicts = noteConflicts(viewsOf(a), viewsOf(b), 3, stats, pairSharedFrames);
      if (lastPair.get(a) === p) views.delete(a);
      if (lastPair.get(b) === p) views.delete(b);
      const found = conflicts.map((f) => ({
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
