/**
 * MinHash signatures and LSH banding, written here rather than taken from the npm `minhash`
 * package: BENCHMARKS.md has the measured reasons (speed per note, and its index throws when
 * queried with a signature it never inserted).
 */

export const BANDS = 40;
export const ROWS = 3;
export const PERMUTATIONS = BANDS * ROWS;
const MAX_BUCKET_PAIRS_FROM = 64;

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

function mix(x: number): number {
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

/** One permutation at a time over all the hashes, its minimum kept in a local (the same minima). */
export function signature(hashes: Uint32Array): Uint32Array {
  const sig = new Uint32Array(PERMUTATIONS);
  const n = hashes.length;
  for (let i = 0; i < PERMUTATIONS; i++) {
    const seed = SEEDS[i]!;
    let min = 0xffffffff;
    for (let j = 0; j < n; j++) {
      let h = hashes[j]! ^ seed;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      const v = (h ^ (h >>> 16)) >>> 0;
      if (v < min) min = v;
    }
    sig[i] = min;
  }
  return sig;
}

/** Share of equal positions: an estimate of Jaccard similarity. */
export function estimate(a: Uint32Array, b: Uint32Array): number {
  let eq = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) eq++;
  return eq / a.length;
}

/** Candidate pairs [i, j] (i < j) sharing at least one band. */
export function lshCandidates(signatures: readonly Uint32Array[]): [number, number][] {
  const pairs = new Set<number>();
  const out: [number, number][] = [];
  const n = signatures.length;
  for (let b = 0; b < BANDS; b++) {
    // Bucket by a hash of the band; equal bands share a bucket, and the rare collision of unequal
    // ones only adds a candidate that the exact comparison then drops.
    const buckets = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      const sig = signatures[i]!;
      let key = 0x9747b28c ^ b;
      for (let r = 0; r < ROWS; r++) key = mix(key ^ sig[b * ROWS + r]!);
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }
    for (const list of buckets.values()) {
      if (list.length < 2) continue;
      // A huge bucket (many near-identical notes): a star around its first member keeps the
      // cluster connected without listing every pair.
      const star = list.length > MAX_BUCKET_PAIRS_FROM;
      for (let x = 0; x < (star ? 1 : list.length); x++) {
        for (let y = x + 1; y < list.length; y++) {
          const i = list[x]!,
            j = list[y]!;
          const code = i * n + j;
          if (!pairs.has(code)) {
            pairs.add(code);
            out.push([i, j]);
          }
        }
      }
    }
  }
  return out;
}
