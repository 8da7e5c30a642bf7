/**
 * Guard's claims-cache entries are written without node:v8 (src/guard/claims-codec.ts). What decodes must be what
 * node:v8's serializer gave back: every Map, Set and typed array with its type and order, on the entries the cache
 * writes for real notes (the corpus and the topical bench shape, both forms: columns and whole). A value JSON would
 * change is refused, so that entry is simply not cached.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';
import { decodeEntry, encodeEntry } from '../src/guard/claims-codec.js';
import { storeClaims } from '../src/guard/claims-lazy.js';
import { thingIndex } from '../src/similarity/claims.js';
import { claimsOf, noteClauses } from '../src/similarity/conflict.js';
import { makeVaultFile, readMarkdownFile } from '../src/vault/file.js';
import { tempDir } from './helpers/run.js';

/** Everything a reader can tell apart: types, Map and Set order, typed arrays' types and contents. */
function dump(x: unknown): unknown {
  if (x instanceof Map) return { map: [...x].map(([k, v]) => [dump(k), dump(v)]) };
  if (x instanceof Set) return { set: [...x].map(dump) };
  if (ArrayBuffer.isView(x)) {
    const name = x instanceof Uint8Array ? 'Uint8Array' : x.constructor.name;
    return { [name]: Array.from(x as unknown as ArrayLike<number>) };
  }
  if (Array.isArray(x)) return x.map(dump);
  if (x !== null && typeof x === 'object') return { obj: Object.entries(x).map(([k, v]) => [k, dump(v)]) };
  return x;
}

/** The entry the claims cache writes for a note (claims-cache.ts `computed`), in both forms. */
function entries(path: string): unknown[] {
  const file = readMarkdownFile(path, path, 'note', 1 << 24);
  const view = noteClauses(makeVaultFile(file, []));
  const sentences = view.sentences.map(({ s }) => s);
  const claims = claimsOf(view);
  const head = { magic: 'm', build: 'b', path, maxBytes: 1 << 24, bytes: file.bytes };
  const things = thingIndex(claims);
  const out: unknown[] = [
    { ...head, stored: null, plain: { sentences, claims: { ...claims, subject: [...claims.subject] } }, things },
  ];
  const stored = storeClaims(sentences, claims);
  if (stored) out.push({ ...head, stored, plain: null, things });
  return out;
}

function markdownUnder(dir: string, limit: number): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (out.length >= limit) break;
    if (e.isFile() && e.name.endsWith('.md')) out.push(join(e.parentPath, e.name));
  }
  return out.sort();
}

describe('guard: the claims-cache codec', () => {
  it('gives back what node:v8 gives back, on the entries of real and generated notes', () => {
    const corpus = join(process.cwd(), '..', 'shared', 'corpus');
    const dir = tempDir();
    generateHardVault(dir, 60, 16);
    const paths = [...markdownUnder(corpus, 400), ...markdownUnder(dir, 80)];
    expect(paths.length).toBeGreaterThan(300);
    let long = 0;
    const encodings = [0, 0];
    for (const p of paths)
      for (const e of entries(p)) {
        const viaV8 = v8.deserialize(v8.serialize(e));
        const bytes = encodeEntry(e);
        encodings[bytes.readUInt32LE(4)]!++;
        const decoded = decodeEntry(bytes);
        expect(dump(decoded)).toEqual(dump(viaV8));
        if ((e as { stored: unknown }).stored) long++;
      }
    expect(long).toBeGreaterThan(0); // the columns form was among them
    expect(encodings[0]).toBeGreaterThan(0); // JSON as Latin-1
    expect(encodings[1]).toBeGreaterThan(0); // and as UTF-16 (CJK)
  });

  it('refuses what JSON would change, and bytes it did not write', () => {
    const sparse: number[] = [1];
    sparse[2] = 3; // a hole at 1
    class Point {
      x = 1;
    }
    for (const bad of [NaN, Infinity, -0, { a: undefined }, sparse, new Point(), Symbol('s'), new Map([[{}, 1]])])
      expect(() => encodeEntry({ v: bad })).toThrow(/claims-codec/);
    expect(decodeEntry(encodeEntry({ v: [0, -1, 2.5, 'x', null, true] }))).toEqual({
      v: [0, -1, 2.5, 'x', null, true],
    });
    const good = encodeEntry({ m: new Map([['a', new Set(['x'])]]), t: new Float64Array([1.5, -2]) });
    expect(() => decodeEntry(Buffer.from('not an entry at all'))).toThrow();
    expect(() => decodeEntry(good.subarray(0, good.length - 4))).toThrow(/past the end/);
    const flipped = Buffer.from(good);
    flipped.writeUInt32LE(flipped.readUInt32LE(8) + 3, 8); // the JSON's length wrong
    expect(() => decodeEntry(flipped)).toThrow();
  });

  it('a decoded entry is readable where node:v8 put a Buffer: the bytes compare equal', () => {
    const bytes = readFileSync(join(process.cwd(), 'fixtures', 'demo-vault', 'MEMORY.md'));
    const back = decodeEntry(encodeEntry({ bytes })) as { bytes: Uint8Array };
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.equals(back.bytes)).toBe(true);
  });
});
