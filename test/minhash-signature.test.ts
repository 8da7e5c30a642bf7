/**
 * `signature` computes twelve permutations per pass in WebAssembly SIMD lanes (`simdSignature`), or four per pass
 * where there is no SIMD (`signatureScalar`); the reference below is the definition they replaced (one permutation
 * at a time, with minhash.ts's seeds and mix). Same minima, every position, on both paths.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mix, PERMUTATIONS, SEEDS, signature, signatureScalar, simdSignature } from '../src/similarity/minhash.js';

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

  it('is the same on the scalar and the SIMD path, for every size (the SIMD memory grows past 16k hashes)', () => {
    const simd = simdSignature();
    // Node ≥ 20 on x64 and arm64 has WebAssembly SIMD: the fast path must be there, not silently off.
    expect(simd).not.toBeNull();
    const hash = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 0xffffff00, max: 0xffffffff }),
    );
    fc.assert(
      fc.property(fc.array(hash, { maxLength: 600 }), (h) => {
        const hashes = Uint32Array.from(new Set(h)).sort();
        const want = reference(hashes);
        expect(signatureScalar(hashes)).toEqual(want);
        expect(simd!(hashes)).toEqual(want);
      }),
      { numRuns: 300 },
    );
    for (const size of [0, 1, 16_129, 16_130, 40_000, 3]) {
      const hashes = Uint32Array.from({ length: size }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);
      expect(simd!(hashes)).toEqual(signatureScalar(hashes));
    }
  });

  it('gives the same answer on every call (the SIMD module compiled once)', () => {
    const hashes = Uint32Array.from({ length: 500 }, (_, i) => Math.imul(i + 7, 0x85ebca6b) >>> 0);
    const want = reference(hashes);
    for (let k = 0; k < 100; k++) expect(signature(hashes)).toEqual(want);
  });
});
