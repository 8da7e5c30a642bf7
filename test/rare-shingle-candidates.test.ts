/**
 * rareShingleCandidates visits only the rare lists holding a note that could pass (in at least 3 rare lists and in
 * `0.7 × 0.8` of its own shingle count): the pairs it returns, and their order, must be those of the definition it
 * replaced, which counted every pair of every rare list (the reference below).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type NoteFeatures,
  rareHashLists,
  rareShingleCandidates,
  SIMILAR,
  visitRareLists,
} from '../src/similarity/features.js';

/** The definition before the filter: every rare list's pairs counted, then the same test. */
function reference(features: readonly NoteFeatures[], maxDf = 20): [number, number][] {
  const out: [number, number][] = [];
  visitRareLists(
    features.length,
    rareHashLists(features.length, (i) => features[i]!.shingles, maxDf),
    (a, b, count) => {
      const small = Math.min(features[a]!.shingles.length, features[b]!.shingles.length);
      if (count >= 3 && count >= small * SIMILAR.containment * 0.8) out.push([a, b]);
    },
  );
  return out;
}

/** Sorted distinct keys, as note features' shingles are. */
const asFeatures = (notes: readonly (readonly number[])[]): NoteFeatures[] =>
  notes.map(
    (keys) =>
      ({
        shingles: Uint32Array.from(new Set(keys)).sort(),
      }) as unknown as NoteFeatures,
  );

describe('rareShingleCandidates', () => {
  it('returns the pairs of the unfiltered definition, in its order (short notes inside longer ones, chance overlaps)', () => {
    // Notes of keys from a pool (some near 2^32), and notes made of part of another note and a few keys of their
    // own: such a note often passes with the one it was cut from; chance overlaps do not. maxDf low enough that some
    // keys are too common.
    const key = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0xffffff00, max: 0xffffffff }));
    const cut = fc.record({
      from: fc.nat(),
      keep: fc.array(fc.boolean(), { maxLength: 30 }),
      extra: fc.array(key, { maxLength: 4 }),
    });
    let passing = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(key, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 12 }),
        fc.array(cut, { maxLength: 24 }),
        fc.integer({ min: 2, max: 20 }),
        (bases, cuts, maxDf) => {
          const notes = [...bases];
          for (const c of cuts) {
            const from = notes[c.from % notes.length]!;
            notes.push([...from.filter((_, i) => c.keep[i] ?? true), ...c.extra]);
          }
          const features = asFeatures(notes);
          const expected = reference(features, maxDf);
          passing += expected.length;
          expect(rareShingleCandidates(features, maxDf)).toEqual(expected);
        },
      ),
      { numRuns: 600 },
    );
    // The property must have met passing pairs, not only empty answers.
    expect(passing).toBeGreaterThan(200);
  });

  it('finds a short note inside a long one among notes that share too little to pass', () => {
    const long = Array.from({ length: 50 }, (_, i) => 1000 + i);
    const short = [1003, 1010, 1020, 1030];
    // Noise: each shares two rare keys with the long note (fewer than 3) and one with the next noise note.
    const noise = Array.from({ length: 10 }, (_, i) => [1040 + (i % 10), 1000 + i, 5000 + i, 5001 + i, 9000 + i]);
    const features = asFeatures([long, ...noise, short]);
    expect(rareShingleCandidates(features)).toEqual([[0, 11]]);
    expect(reference(features)).toEqual([[0, 11]]);
  });
});
