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
 * The MinHash signature of a note's hashes: `signatureScalar`'s answer, from a WebAssembly SIMD loop (see
 * `simdSignature`; compiling it costs less than one scalar signature of a hard-shaped note), else from `signatureScalar`.
 */
export function signature(hashes: Uint32Array): Uint32Array {
  return simdSignature()?.(hashes) ?? signatureScalar(hashes);
}

/**
 * Four permutations at a time over all the hashes, their minima kept in locals (the same minima as one at a time:
 * each is the minimum of its own mix over the same hashes); PERMUTATIONS is a multiple of four.
 */
export function signatureScalar(hashes: Uint32Array): Uint32Array {
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

/**
 * `signatureScalar` as a WebAssembly function over 128-bit lanes: per hash, `VECTORS` × 4 permutations at once (the
 * seeded hash xor-ed, murmur3's finalizer with `i32x4.mul` for `Math.imul`, the unsigned minimum kept per lane), the
 * same 32-bit integer arithmetic lane by lane, so the same signature. Memory: the seeds at 0, the signature at 512, the
 * hashes from 1024. Built here from its opcodes (no binary file to ship); null where the engine has no SIMD.
 */
const VECTORS = 3;
const OUT_AT = 512;
const HASHES_AT = 1024;
let simdState: ((hashes: Uint32Array) => Uint32Array) | null | undefined;
/** What of the WebAssembly API this file uses (the ES2023 lib this project compiles against does not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export function simdSignature(): ((hashes: Uint32Array) => Uint32Array) | null {
  if (simdState !== undefined) return simdState;
  simdState = null;
  // No environment switch here: the rules import this file, and a rule that reads the environment must be marked as
  // reading outside the vault (test/check-cache.test.ts). `signatureScalar` is the scalar path, exported.
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return null;
    const instance = new wasm.Instance(new wasm.Module(signatureModule()));
    const memory = instance.exports.m as WasmMemory;
    const run = instance.exports.s as (n: number) => void;
    let view = new Uint32Array(memory.buffer);
    view.set(SEEDS, 0);
    simdState = (hashes) => {
      const need = HASHES_AT + hashes.length * 4;
      if (need > memory.buffer.byteLength) {
        try {
          memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
        } catch {
          return signatureScalar(hashes); // the engine would not grow the module's memory: the same answer, scalar
        }
        view = new Uint32Array(memory.buffer);
      }
      view.set(hashes, HASHES_AT / 4);
      run(hashes.length);
      return view.slice(OUT_AT / 4, OUT_AT / 4 + PERMUTATIONS);
    };
  } catch {
    simdState = null;
  }
  return simdState;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? b : b | 0x80);
  } while (n !== 0);
  return out;
};
/** i32.const of a number (signed LEB128). */
const i32 = (n: number): number[] => {
  const out = [0x41];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const v128Const = (word: number): number[] => {
  const bytes: number[] = [];
  for (let l = 0; l < 4; l++) for (let k = 0; k < 4; k++) bytes.push((word >>> (8 * k)) & 0xff);
  return [0xfd, 0x0c, ...bytes];
};

/** The module: memory `m` (one page to start), function `s(n)`: the signature of the n hashes at HASHES_AT. */
function signatureModule(): Uint8Array {
  const [N, P, END, G, X, H, C1, C2] = [0, 1, 2, 3, 4, 5, 6, 7];
  const M = (j: number): number => 8 + j;
  const S = (j: number): number => 8 + VECTORS + j;
  const get = (l: number): number[] => [0x20, l];
  const set = (l: number): number[] => [0x21, l];
  const tee = (l: number): number[] => [0x22, l];
  const XOR = [0xfd, 0x51];
  const SHR_U = [0xfd, 0xad, 0x01];
  const MUL = [0xfd, 0xb5, 0x01];
  const MIN_U = [0xfd, 0xb7, 0x01];
  const [I32_SHL, I32_ADD, I32_GE_U, I32_LT_U, LOOP, BLOCK, BR, BR_IF, END_OP, VOID] = [
    0x74, 0x6a, 0x4f, 0x49, 0x03, 0x02, 0x0c, 0x0d, 0x0b, 0x40,
  ];
  const [V128_LOAD, V128_LOAD32_SPLAT, V128_STORE] = [0x00, 0x09, 0x0b].map((op) => [0xfd, op]) as [
    number[],
    number[],
    number[],
  ];
  const body: number[] = [];
  // end = HASHES_AT + n * 4; the finalizer's constants; g = 0 (the group's byte offset among the seeds).
  body.push(...i32(HASHES_AT), ...get(N), ...i32(2), I32_SHL, I32_ADD, ...set(END));
  body.push(...v128Const(0x85ebca6b), ...set(C1), ...v128Const(0xc2b2ae35), ...set(C2), ...i32(0), ...set(G));
  body.push(LOOP, VOID); // one group of VECTORS × 4 permutations: its seeds, its minima at 0xffffffff
  for (let j = 0; j < VECTORS; j++) body.push(...get(G), ...V128_LOAD, 4, ...uleb(16 * j), ...set(S(j)));
  for (let j = 0; j < VECTORS; j++) body.push(...v128Const(0xffffffff), ...set(M(j)));
  body.push(...i32(HASHES_AT), ...set(P), BLOCK, VOID, LOOP, VOID); // each hash
  body.push(...get(P), ...get(END), I32_GE_U, BR_IF, 1); // p >= end: out of the block
  body.push(...get(P), ...V128_LOAD32_SPLAT, 2, 0, ...set(X)); // x in every lane
  for (let j = 0; j < VECTORS; j++) {
    body.push(...get(X), ...get(S(j)), ...XOR, ...tee(H)); // h = x ^ seed
    body.push(...get(H), ...i32(16), ...SHR_U, ...XOR, ...get(C1), ...MUL, ...tee(H)); // h = imul(h ^ h >>> 16, C1)
    body.push(...get(H), ...i32(13), ...SHR_U, ...XOR, ...get(C2), ...MUL, ...tee(H)); // h = imul(h ^ h >>> 13, C2)
    body.push(...get(H), ...i32(16), ...SHR_U, ...XOR); // h ^ h >>> 16
    body.push(...get(M(j)), ...MIN_U, ...set(M(j))); // the unsigned minimum, lane by lane
  }
  body.push(...get(P), ...i32(4), I32_ADD, ...set(P), BR, 0, END_OP, END_OP); // p += 4; again; end loop, block
  for (let j = 0; j < VECTORS; j++)
    body.push(...i32(OUT_AT), ...get(G), I32_ADD, ...get(M(j)), ...V128_STORE, 4, ...uleb(16 * j));
  // g += the group's bytes; again while g < the seeds' bytes; end loop, function.
  body.push(...get(G), ...i32(16 * VECTORS), I32_ADD, ...tee(G), ...i32(PERMUTATIONS * 4), I32_LT_U, BR_IF, 0);
  body.push(END_OP, END_OP);
  const locals = [0x02, 0x03, 0x7f, ...uleb(4 + 2 * VECTORS), 0x7b];
  const func = [...locals, ...body];
  const MAGIC_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  return Uint8Array.from([
    ...MAGIC_VERSION,
    ...section(1, [0x01, 0x60, 0x01, 0x7f, 0x00]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, [0x02, 0x01, 0x6d, 0x02, 0x00, 0x01, 0x73, 0x00, 0x00]),
    ...section(10, [0x01, ...uleb(func.length), ...func]),
  ]);
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
