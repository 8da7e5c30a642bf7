/**
 * `signature` computes four permutations per pass over a note's hashes; the reference below is the definition it
 * replaced (one permutation at a time, with minhash.ts's seeds and mix). Same minima, every position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mix, PERMUTATIONS, SEEDS, signature } from '../src/similarity/minhash.js';

function reference(hashes: Uint32Array): Uint32Array {
  const sig = new Uint32Array(PERMUTATIONS);
  for (let i = 0; i < PERMUTATIONS; i++) {
    let min = 0xffffffff;
    for (const h of hashes) min = Math.min(min, mix(h ^ SEEDS[i]!));
    sig[i] = min;
  }
  return sig;
}

describe('signature', () => {
  it('gives the minima of one permutation at a time, at every position', () => {
    const hash = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 64 }));
    fc.assert(
      fc.property(fc.array(hash, { maxLength: 300 }), (h) => {
        const hashes = Uint32Array.from(new Set(h)).sort();
        expect(signature(hashes)).toEqual(reference(hashes));
      }),
      { numRuns: 500 },
    );
  });

  it('of no hashes is all 0xffffffff', () => {
    expect(signature(new Uint32Array(0))).toEqual(new Uint32Array(PERMUTATIONS).fill(0xffffffff));
  });
});
