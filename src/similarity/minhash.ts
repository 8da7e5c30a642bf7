/**
 * MinHash signatures and LSH banding, written here rather than taken from the npm `minhash`
 * package: BENCHMARKS.md has the measured reasons (speed per note, and its index throws when
 * queried with a signature it never inserted).
 */

import { radixSortByKey, sortUniquePrefix } from '../util/radix.js';

export const BANDS = 40;
export const ROWS = 3;
export const PERMUTATIONS = BANDS * ROWS;
const MAX_BUCKET_PAIRS_FROM = 64;

/** The seeds of the permutations (exported for test/minhash-signature.test.ts's reference). */
export const SEEDS: Readonly<Uint32Array> = (() => {
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

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a state after the UTF-16 code units of s, from state h. */
export function fnvState(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/** FNV-1a over UTF-16 code units. */
export function hash32(s: string): number {
  return fnvState(FNV_OFFSET, s) >>> 0;
}

/** A 32-bit finalizer (murmur3's): a permutation of the seeded hash, and the LSH band key's step. */
export function mix(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Sorted, distinct 32-bit hashes of the shingles: a compact set (Jaccard by merging). */
export function hashSet(shingles: Iterable<string>): Uint32Array {
  const out: number[] = [];
  for (const s of shingles) out.push(hash32(s));
  const arr = Uint32Array.from(out).sort();
  let w = 0;
  for (let i = 0; i < arr.length; i++) if (i === 0 || arr[i] !== arr[i - 1]) arr[w++] = arr[i]!;
  return arr.slice(0, w);
}

/**
 * Four permutations at a time over all the hashes, their minima kept in locals (the same minima as one at a time:
 * each is the minimum of its own mix over the same hashes); PERMUTATIONS is a multiple of four.
 */
export function signature(hashes: Uint32Array): Uint32Array {
  const sig = new Uint32Array(PERMUTATIONS);
  const n = hashes.length;
  for (let i = 0; i < PERMUTATIONS; i += 4) {
    const s0 = SEEDS[i]!,
      s1 = SEEDS[i + 1]!,
      s2 = SEEDS[i + 2]!,
      s3 = SEEDS[i + 3]!;
    let m0 = 0xffffffff,
      m1 = 0xffffffff,
      m2 = 0xffffffff,
      m3 = 0xffffffff;
    for (let j = 0; j < n; j++) {
      const x = hashes[j]!;
      let h = x ^ s0;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      const v0 = (h ^ (h >>> 16)) >>> 0;
      if (v0 < m0) m0 = v0;
      h = x ^ s1;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      const v1 = (h ^ (h >>> 16)) >>> 0;
      if (v1 < m1) m1 = v1;
      h = x ^ s2;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      const v2 = (h ^ (h >>> 16)) >>> 0;
      if (v2 < m2) m2 = v2;
      h = x ^ s3;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      const v3 = (h ^ (h >>> 16)) >>> 0;
      if (v3 < m3) m3 = v3;
    }
    sig[i] = m0;
    sig[i + 1] = m1;
    sig[i + 2] = m2;
    sig[i + 3] = m3;
  }
  return sig;
}

/** Share of equal positions: an estimate of Jaccard similarity. */
export function estimate(a: Uint32Array, b: Uint32Array): number {
  let eq = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) eq++;
  return eq / a.length;
}

/** Candidate pairs [i, j] (i < j) sharing at least one band, ordered by (i, j). */
export function lshCandidates(signatures: readonly Uint32Array[]): [number, number][] {
  const n = signatures.length;
  return [...lshPairCodes(signatures)].map((code) => {
    const i = Math.floor(code / n);
    return [i, code - i * n];
  });
}

/**
 * The pairs (i, j), i < j, whose signatures share at least one band, as codes i * n + j, ascending and distinct.
 * Each band's notes are sorted by a hash of the band (a radix sort: no map of buckets); a run of equal hashes is a
 * bucket, its members ascending. Equal bands share a bucket, and the rare collision of unequal ones only adds a
 * candidate that the exact comparison then drops. The codes are collected in one typed array, sorted and made
 * distinct whenever it fills (no set of boxed codes).
 */
export function lshPairCodes(signatures: readonly Uint32Array[]): Float64Array {
  const n = signatures.length;
  let codes = new Float64Array(1024);
  let m = 0;
  const push = (code: number): void => {
    if (m === codes.length) {
      m = sortUniquePrefix(codes, m);
      if (m * 2 > codes.length) {
        const grown = new Float64Array(codes.length * 2);
        grown.set(codes.subarray(0, m));
        codes = grown;
      }
    }
    codes[m++] = code;
  };
  const keys = new Uint32Array(n);
  const items = new Int32Array(n);
  for (let b = 0; b < BANDS; b++) {
    for (let i = 0; i < n; i++) {
      const sig = signatures[i]!;
      let key = 0x9747b28c ^ b;
      for (let r = 0; r < ROWS; r++) key = mix(key ^ sig[b * ROWS + r]!);
      keys[i] = key;
      items[i] = i;
    }
    const sorted = radixSortByKey(keys, items);
    for (let s = 0; s < n;) {
      let e = s + 1;
      while (e < n && sorted.keys[e] === sorted.keys[s]) e++;
      // A huge bucket (many near-identical notes): a star around its first member keeps the
      // cluster connected without listing every pair.
      const star = e - s > MAX_BUCKET_PAIRS_FROM;
      for (let x = s; x < (star ? s + 1 : e); x++)
        for (let y = x + 1; y < e; y++) push(sorted.items[x]! * n + sorted.items[y]!);
      s = e;
    }
  }
  return codes.slice(0, sortUniquePrefix(codes, m));
}
