import { isSimilar, SIMILAR } from '../features.js';
import { defineStage, type ItemDraft } from '../stage.js';
import { NEGATIONS, isNumberToken } from '../text.js';

const DATE = /^\d{4}-\d{2}(-\d{2})?$/;

/**
 * Pairs that disagree rather than repeat: a number changed (one on each side that the other lacks;
 * dates do not count) or a negation present on one side only. They go to the contradiction stage.
 */
export function differsInDigitsOrNegation(ta: readonly string[], tb: readonly string[], options: { sameStatement?: boolean } = {}): boolean {
  const a = new Set(ta);
  const b = new Set(tb);
  const onlyNumbers = (x: Set<string>, y: Set<string>): boolean => [...x].some((t) => !y.has(t) && isNumberToken(t) && !DATE.test(t));
  if (onlyNumbers(a, b) && onlyNumbers(b, a)) return true;
  // A negation in the extra text of a longer note (a short note inside it) is not a flipped statement.
  if (options.sameStatement === false) return false;
  const negA = [...a].some((t) => NEGATIONS.has(t));
  const negB = [...b].some((t) => NEGATIONS.has(t));
  return negA !== negB;
}

function find(parent: number[], x: number): number {
  while (parent[x] !== x) { parent[x] = parent[parent[x]!]!; x = parent[x]!; }
  return x;
}

export default defineStage({
  id: 'near-duplicates',
  description: 'Notes that say the same thing: MinHash/LSH candidates confirmed by exact Jaccard or containment, grouped into clusters.',
  run(ctx) {
    const merging = ctx.pairs.filter((p) => isSimilar(p) && !differsInDigitsOrNegation(ctx.features[p.a]!.tokens(), ctx.features[p.b]!.tokens(), { sameStatement: p.jaccard >= SIMILAR.jaccard }));
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
      const keep = [...notes].sort((x, y) =>
        (ctx.inbound.get(y.path) ?? 0) - (ctx.inbound.get(x.path) ?? 0) || y.text.length - x.text.length || (x.path < y.path ? -1 : 1))[0]!;
      const set = new Set(members);
      const pairs = merging.filter((p) => set.has(p.a) && set.has(p.b)).map((p) => ({
        a: ctx.features[p.a]!.note.path, b: ctx.features[p.b]!.note.path, jaccard: p.jaccard, containment: p.containment,
      }));
      const similarity = Math.max(...pairs.map((p) => Math.max(p.jaccard, p.containment)));
      const retire = notes.map((n) => n.path).filter((p) => p !== keep.path).sort();
      items.push({
        kind: 'near-duplicate',
        paths: [keep.path, ...retire],
        evidence: { similarity, pairs },
        suggestion: 'merge',
        action: { type: 'merge', into: keep.path, retire },
      });
    }
    return items;
  },
});
