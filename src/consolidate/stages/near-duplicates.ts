import { digestsDiffer, isSimilar, SIMILAR, tokenDigest, type TokenDigest } from '../../similarity/features.js';
import { mergedBody, unheldUnits } from '../../similarity/held.js';
import { THRESHOLDS } from '../../similarity/score.js';
import { count } from '../../util/counters.js';
import { defineStage, type ItemDraft } from '../stage.js';
export { differsInDigitsOrNegation } from '../../similarity/features.js';

function find(parent: number[], x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x]!]!;
    x = parent[x]!;
  }
  return x;
}

export default defineStage({
  id: 'near-duplicates',
  description:
    'Notes that say the same thing: MinHash/LSH candidates confirmed by exact Jaccard or containment, grouped into clusters.',
  run(ctx) {
    // A note's tokens are read once here, not once per pair it is in, and only their digest is kept.
    const digests = new Map<number, TokenDigest>();
    const digestOf = (i: number): TokenDigest => {
      let d = digests.get(i);
      if (!d) {
        d = tokenDigest(ctx.features[i]!.tokens());
        digests.set(i, d);
      }
      return d;
    };
    const merging = ctx.pairs.filter(
      (p) =>
        isSimilar(p) && !digestsDiffer(digestOf(p.a), digestOf(p.b), { sameStatement: p.jaccard >= SIMILAR.jaccard }),
    );
    // Each note's merging pairs, in order (a cluster reads its kept note's, not every pair's: no clusters × pairs).
    const mergingOf = new Map<number, (typeof merging)[number][]>();
    for (const p of merging)
      for (const i of [p.a, p.b]) {
        const list = mergingOf.get(i);
        if (list) list.push(p);
        else mergingOf.set(i, [p]);
      }
    const parent = ctx.features.map((_, i) => i);
    for (const p of merging) parent[find(parent, p.a)] = find(parent, p.b);
    const clusters = new Map<number, number[]>();
    ctx.features.forEach((_, i) => {
      const r = find(parent, i);
      const list = clusters.get(r) ?? [];
      list.push(i);
      clusters.set(r, list);
    });
    const items: ItemDraft[] = [];
    for (const members of clusters.values()) {
      if (members.length < 2) continue;
      const notes = members.map((i) => ctx.features[i]!.note);
      // Keep the note others rely on: most inbound links, then the longest, then the first path.
      const keep = [...notes].sort(
        (x, y) =>
          (ctx.inbound.get(y.path) ?? 0) - (ctx.inbound.get(x.path) ?? 0) ||
          y.text.length - x.text.length ||
          (x.path < y.path ? -1 : 1),
      )[0]!;
      const k = members[notes.indexOf(keep)]!;
      // A merge retires only notes that are near-duplicates of the kept one itself (not through a third
      // note: clusters are transitive) and whose text the kept one mostly holds: near-identical both ways,
      // or the smaller side of a containment. What it does not hold is carried (below).
      const kept = mergingOf.get(k) ?? [];
      count('nearDuplicates.clusterPairReads', kept.length);
      const direct = kept.filter((p) => {
        const other = p.a === k ? p.b : p.b === k ? p.a : -1;
        if (other < 0) return false;
        return (
          p.jaccard >= THRESHOLDS.duplicate || ctx.features[other]!.shingles.length <= ctx.features[k]!.shingles.length
        );
      });
      if (direct.length === 0) continue;
      const pairs = direct.map((p) => ({
        a: ctx.features[p.a]!.note.path,
        b: ctx.features[p.b]!.note.path,
        jaccard: p.jaccard,
        containment: p.containment,
      }));
      const similarity = Math.max(...pairs.map((p) => Math.max(p.jaccard, p.containment)));
      const retire = direct.map((p) => ctx.features[p.a === k ? p.b : p.a]!.note.path).sort();
      // What the retired notes say that the kept one does not is carried into the kept note's body, so
      // approving the merge loses no text (the reviewer sees and can edit the merged body).
      const byPath = new Map(notes.map((n) => [n.path, n]));
      const carried = unheldUnits(
        keep,
        retire.map((path) => ({ from: path, view: byPath.get(path)! })),
      );
      items.push({
        kind: 'near-duplicate',
        paths: [keep.path, ...retire],
        evidence: carried.length
          ? { similarity, pairs, carried: carried.map((c) => ({ from: c.from, sentences: c.units.length })) }
          : { similarity, pairs },
        suggestion: 'merge',
        action: carried.length
          ? { type: 'merge', into: keep.path, retire, body: mergedBody(keep, carried) }
          : { type: 'merge', into: keep.path, retire },
      });
    }
    return items;
  },
});
