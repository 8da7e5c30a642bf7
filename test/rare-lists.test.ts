/**
 * rareShingleCandidates reads its rare lists from a radix sort of (hash, note) pairs (rareHashLists), not from a
 * map of postings: the pairs and counts it visits must be those of the map (forEachRarePair), for any keys,
 * duplicates within a note and keys above the small-integer range included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachRarePair, rareHashLists, visitRareLists } from '../src/similarity/features.js';

const visits = (run: (visit: (a: number, b: number, c: number) => void) => void): string[] => {
  const out: string[] = [];
  run((a, b, c) => out.push(`${a} ${b} ${c}`));
  return out.sort();
};

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
