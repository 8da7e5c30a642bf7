/**
 * The similar-pairs pass sorts typed arrays where it used maps and sets (issue 14); these compare each with the
 * map or set it replaced. rareShingleCandidates reads its rare lists from a radix sort of (hash, note) pairs (rareHashLists), not from a
 * map of postings: the pairs and counts it visits must be those of the map (forEachRarePair below), for any keys,
 * duplicates within a note and keys above the small-integer range included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rareHashLists, sharedRareKeys, visitRareLists } from '../src/similarity/features.js';
import { BANDS, lshCandidates, lshPairCodes, PERMUTATIONS, ROWS } from '../src/similarity/minhash.js';
import { radixSortByKey, sortUniquePrefix } from '../src/util/radix.js';

/**
 * The reference: the rare lists read from a map of postings (key → ascending notes, cut past maxDf), the way
 * sharedRareKeys read them before the radix-sorted lists; `visit(a, b, count)` once per pair sharing rare keys.
 */
function forEachRarePair<K>(
  n: number,
  keysOf: (i: number) => Iterable<K>,
  maxDf: number,
  visit: (a: number, b: number, count: number) => void,
): void {
  const postings = new Map<K, number[]>();
  for (let i = 0; i < n; i++) {
    for (const k of keysOf(i)) {
      const list = postings.get(k);
      if (!list) postings.set(k, [i]);
      else if (list.length <= maxDf && list[list.length - 1] !== i) list.push(i);
    }
  }
  const lists: number[][] = [];
  for (const list of postings.values()) if (list.length >= 2 && list.length <= maxDf) lists.push(list);
  visitRareLists(n, lists, visit);
}

const visits = (run: (visit: (a: number, b: number, c: number) => void) => void): string[] => {
  const out: string[] = [];
  run((a, b, c) => out.push(`${a} ${b} ${c}`));
  return out.sort();
};

describe('sharedRareKeys', () => {
  it('counts what the map of postings counts, for keys of any kind (the terms numbered, then rareHashLists)', () => {
    // Terms from a small pool so that they repeat across notes (and within one).
    const term = fc.constantFrom('a', 'b', 'c', 'deploy', 'vitest', 'jest', '日本', 'x'.repeat(40), 'e', 'f');
    fc.assert(
      fc.property(
        fc.array(fc.array(term, { maxLength: 12 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (notes, maxDf) => {
          const n = notes.length;
          const expected = new Map<number, number>();
          forEachRarePair(
            n,
            (i) => notes[i]!,
            maxDf,
            (a, b, c) => expected.set(a * n + b, c),
          );
          const actual = sharedRareKeys(n, (i) => notes[i]!, maxDf);
          expect([...actual].sort((x, y) => x[0] - y[0])).toEqual([...expected].sort((x, y) => x[0] - y[0]));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('rareHashLists', () => {
  it('visits the same pairs with the same counts as the map of postings', () => {
    // Keys from a small pool so that they repeat across notes (and within one), some near 2^32.
    const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0xffffffc0, max: 0xffffffff }));
    fc.assert(
      fc.property(
        fc.array(fc.array(key, { maxLength: 30 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (notes, maxDf) => {
          const keys = notes.map((k) => Uint32Array.from(k));
          const n = keys.length;
          const expected = visits((v) => forEachRarePair(n, (i) => keys[i]!, maxDf, v));
          const actual = visits((v) =>
            visitRareLists(
              n,
              rareHashLists(n, (i) => keys[i]!, maxDf),
              v,
            ),
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
  it('lists each rare key once, its notes ascending and distinct', () => {
    const keys = [
      Uint32Array.of(7, 7, 0xfffffff0),
      Uint32Array.of(5, 7),
      Uint32Array.of(0xfffffff0, 7),
      Uint32Array.of(9),
    ];
    expect(rareHashLists(4, (i) => keys[i]!, 3)).toEqual([
      [0, 1, 2],
      [0, 2],
    ]);
    // 7 is in three notes: more than maxDf = 2, so not rare.
    expect(rareHashLists(4, (i) => keys[i]!, 2)).toEqual([[0, 2]]);
  });
});

/** The LSH candidates as the map-of-buckets and set-of-codes version computed them (the reference). */
function lshReference(signatures: readonly Uint32Array[]): [number, number][] {
  const mix = (x: number): number => {
    let h = x;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
  const pairs = new Set<number>();
  const out: [number, number][] = [];
  const n = signatures.length;
  for (let b = 0; b < BANDS; b++) {
    const buckets = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      let key = 0x9747b28c ^ b;
      for (let r = 0; r < ROWS; r++) key = mix(key ^ signatures[i]![b * ROWS + r]!);
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }
    for (const list of buckets.values()) {
      const star = list.length > 64;
      for (let x = 0; x < (star ? 1 : list.length); x++)
        for (let y = x + 1; y < list.length; y++) {
          const code = list[x]! * n + list[y]!;
          if (!pairs.has(code)) {
            pairs.add(code);
            out.push([list[x]!, list[y]!]);
          }
        }
    }
  }
  return out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

describe('lshPairCodes', () => {
  it('gives the pairs the map of buckets gives, in (i, j) order, huge buckets as stars', () => {
    // Signatures drawn from a few base signatures with some positions changed: bands repeat across notes.
    const sigs = fc.integer({ min: 1, max: 6 }).chain((bases) =>
      fc.array(
        fc.record({
          base: fc.integer({ min: 0, max: bases - 1 }),
          changed: fc.array(fc.integer({ min: 0, max: PERMUTATIONS - 1 }), { maxLength: 60 }),
        }),
        { maxLength: 90 },
      ),
    );
    fc.assert(
      fc.property(sigs, (notes) => {
        const signatures = notes.map(({ base, changed }, i) => {
          const s = new Uint32Array(PERMUTATIONS).map((_, p) => (base * 7919 + p * 104729) >>> 0);
          for (const p of changed) s[p] = (i * 31 + p) >>> 0;
          return s;
        });
        const codes = [...lshPairCodes(signatures)];
        const n = signatures.length;
        expect(codes.map((c) => [Math.floor(c / n), c % n])).toEqual(lshReference(signatures));
        expect(lshCandidates(signatures)).toEqual(lshReference(signatures));
      }),
      { numRuns: 200 },
    );
  });
});

describe('lshPairCodes on a bucket just past 64 notes', () => {
  it('pairs its first note with each other one, not every pair', () => {
    const same = new Uint32Array(PERMUTATIONS).map((_, p) => p * 2654435761);
    const signatures = [...Array.from({ length: 66 }, () => same), new Uint32Array(PERMUTATIONS)];
    expect(lshCandidates(signatures)).toEqual(lshReference(signatures));
    expect(lshPairCodes(signatures).length).toBe(65);
  });
});

describe('radixSortByKey and sortUniquePrefix', () => {
  it('sort by key and keep the order of equal keys; sort and drop repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 0xffffffff }))), (ks) => {
        const keys = Uint32Array.from(ks);
        const items = Int32Array.from(ks.map((_, i) => i));
        const expected = ks.map((k, i) => [k, i]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
        const sorted = radixSortByKey(keys, items);
        expect([...sorted.keys].map((k, j) => [k, sorted.items[j]])).toEqual(expected);
        const values = Float64Array.from(ks.map((k) => k * 3));
        const m = sortUniquePrefix(values, values.length);
        expect([...values.subarray(0, m)]).toEqual([...new Set(ks.map((k) => k * 3))].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});
