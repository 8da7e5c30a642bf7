/**
 * `signature` computes four permutations per pass over a note's hashes; the reference below is the definition it
 * replaced (one permutation at a time, the seeds derived as minhash.ts derives them). Same minima, every position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERMUTATIONS, signature } from '../src/similarity/minhash.js';

const SEEDS = (() => {
  const seeds = new Uint32Array(PERMUTATIONS);
  let s = 0x9e3779b9;
  for (let i = 0; i < PERMUTATIONS; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    seeds[i] = s >>> 0;
  }
  return seeds;
})();

function mix(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

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
