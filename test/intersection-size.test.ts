/**
 * `intersectionSize` (src/similarity/text.ts) merges two sorted shingle arrays, or gallops through
 * the larger when one side is more than 16 times the other (guard's draft against long notes,
 * issue 14). Both must count what a Set counts, on balanced and unbalanced, dense and sparse arrays.
 */
import { describe, expect, it } from 'vitest';
import { intersectionSize, intersectionWith, jaccard, containment } from '../src/similarity/text.js';
import { similarity, similarityTo, THRESHOLDS } from '../src/similarity/score.js';

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const sortedDistinct = (r: () => number, n: number, range: number): Uint32Array =>
  Uint32Array.from(new Set(Array.from({ length: n }, () => Math.floor(r() * range)))).sort();

const bySet = (a: Uint32Array, b: Uint32Array): number => {
  const s = new Set(a);
  let n = 0;
  for (const x of b) if (s.has(x)) n++;
  return n;
};

describe('intersectionSize', () => {
  it('counts what a Set counts, merging or galloping, either way round', () => {
    const r = rng(14);
    let galloped = 0;
    for (let k = 0; k < 3000; k++) {
      const range = [16, 1000, 2 ** 32 - 1][k % 3]!;
      const a = sortedDistinct(r, Math.floor(r() * 40), range);
      const b = sortedDistinct(r, Math.floor(r() * (k % 2 ? 5000 : 60)), range);
      if (a.length * 16 < b.length) galloped++;
      expect(intersectionSize(a, b)).toBe(bySet(a, b));
      expect(intersectionSize(b, a)).toBe(bySet(a, b));
    }
    expect(galloped).toBeGreaterThan(1000);
  });

  it('edge cases: empty, all shared, the largest values, a match at either end', () => {
    const big = Uint32Array.from({ length: 1000 }, (_, i) => i * 3);
    expect(intersectionSize(new Uint32Array(0), big)).toBe(0);
    expect(intersectionSize(Uint32Array.of(0, 2997), big)).toBe(2);
    expect(intersectionSize(Uint32Array.of(1, 2998, 2999), big)).toBe(0);
    expect(intersectionSize(Uint32Array.of(4294967295), Uint32Array.from([...big, 4294967295]))).toBe(1);
    expect(intersectionSize(big.subarray(0, 50), big)).toBe(50);
  });

  it('similarity() scores as jaccard and containment computed on their own', () => {
    const r = rng(7);
    for (let k = 0; k < 500; k++) {
      const a = sortedDistinct(r, 20 + Math.floor(r() * 200), 3000);
      const b = sortedDistinct(r, 20 + Math.floor(r() * 4000), 3000);
      const s = similarity(a, b);
      const round = (x: number): number => Math.round(x * 1000) / 1000;
      expect(s.jaccard).toBe(round(jaccard(a, b)));
      expect(s.containment).toBe(
        round(Math.min(a.length, b.length) >= THRESHOLDS.minShinglesForContainment ? containment(a, b) : jaccard(a, b)),
      );
    }
  });

  it('intersectionWith (one set prepared for many) counts what a Set counts, also when low 16 bits collide', () => {
    const r = rng(41);
    let collided = 0;
    for (let k = 0; k < 2000; k++) {
      // Ranges 16 and 1000 are dense; the spread one puts many values on one low-16-bit slot (k * 65536 + slot).
      const kind = k % 4;
      const make = (n: number): Uint32Array =>
        kind === 3
          ? Uint32Array.from(
              new Set(
                Array.from({ length: n }, () => ((Math.floor(r() * 65536) * 65536) | (Math.floor(r() * 8) * 7)) >>> 0),
              ),
            ).sort()
          : sortedDistinct(r, n, [16, 1000, 2 ** 32 - 1][kind]!);
      const a = make(Math.floor(r() * 400));
      const prepared = intersectionWith(a);
      for (let m = 0; m < 5; m++) {
        const b = make(Math.floor(r() * (m % 2 ? 6000 : 500)));
        const want = bySet(a, b);
        expect(prepared(b)).toBe(want);
        if (kind === 3 && b.length > 0 && a.length > 0 && want < Math.min(a.length, b.length)) collided++;
      }
    }
    expect(collided).toBeGreaterThan(100);
  });

  it('similarityTo(a)(b) is similarity(a, b)', () => {
    const r = rng(9);
    for (let k = 0; k < 300; k++) {
      const a = sortedDistinct(r, Math.floor(r() * 300), 5000);
      const to = similarityTo(a);
      for (let m = 0; m < 4; m++) {
        const b = sortedDistinct(r, Math.floor(r() * 3000), 5000);
        expect(to(b)).toEqual(similarity(a, b));
      }
    }
  });
});
