/**
 * Guard's signature cache, VAULT/.memlint/cache/guard-v1.bin: a JSON header (one entry per note:
 * path, size, mtime, name, type, modified, origin) and one Uint32Array holding every note's MinHash
 * signature and shingle hashes. An entry is used only while its file has the same size and mtime;
 * a corrupt file or one from another version is rebuilt.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { VERSION } from '../version.js';
import { PERMUTATIONS } from '../consolidate/minhash.js';

export interface NoteSignature {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly name: string | null;
  readonly type: string | null;
  readonly modified: string | null;
  readonly origin: string | null;
  readonly signature: Uint32Array;
  readonly shingles: Uint32Array;
}

const MAGIC = 'memlint-guard-cache';
export const CACHE_FILE = join('.memlint', 'cache', 'guard-v1.bin');

interface Header { magic: string; version: string; perms: number; entries: { p: string; s: number; m: number; n: string | null; t: string | null; d: string | null; o: string | null; at: number; len: number }[] }

export function readCache(vaultRoot: string): Map<string, NoteSignature> | null {
  let buf: Buffer;
  try { buf = readFileSync(join(vaultRoot, CACHE_FILE)); } catch { return null; }
  try {
    const headerLen = buf.readUInt32LE(0);
    const header = JSON.parse(buf.toString('utf8', 4, 4 + headerLen)) as Header;
    if (header.magic !== MAGIC || header.version !== VERSION || header.perms !== PERMUTATIONS) return null;
    const start = 4 + headerLen;
    const pad = (4 - (start % 4)) % 4;
    const body = buf.subarray(start + pad);
    const words = new Uint32Array(body.buffer, body.byteOffset, Math.floor(body.byteLength / 4));
    const out = new Map<string, NoteSignature>();
    for (const e of header.entries) {
      if (e.at + PERMUTATIONS + e.len > words.length) return null;
      out.set(e.p, {
        path: e.p, size: e.s, mtimeMs: e.m, name: e.n, type: e.t, modified: e.d, origin: e.o,
        signature: words.subarray(e.at, e.at + PERMUTATIONS), shingles: words.subarray(e.at + PERMUTATIONS, e.at + PERMUTATIONS + e.len),
      });
    }
    return out;
  } catch {
    return null; // corrupt: rebuilt by the caller
  }
}

export function writeCache(vaultRoot: string, notes: readonly NoteSignature[]): void {
  const entries: Header['entries'] = [];
  let at = 0;
  for (const n of notes) {
    entries.push({ p: n.path, s: n.size, m: n.mtimeMs, n: n.name, t: n.type, d: n.modified, o: n.origin, at, len: n.shingles.length });
    at += PERMUTATIONS + n.shingles.length;
  }
  const words = new Uint32Array(at);
  notes.forEach((n, i) => { words.set(n.signature, entries[i]!.at); words.set(n.shingles, entries[i]!.at + PERMUTATIONS); });
  const header = Buffer.from(JSON.stringify({ magic: MAGIC, version: VERSION, perms: PERMUTATIONS, entries } satisfies Header), 'utf8');
  const pad = (4 - ((4 + header.length) % 4)) % 4;
  const out = Buffer.alloc(4 + header.length + pad + words.byteLength);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  Buffer.from(words.buffer, words.byteOffset, words.byteLength).copy(out, 4 + header.length + pad);
  const file = join(vaultRoot, CACHE_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, out, 0o644);
}
