/**
 * The conflict engine's features of the notes guard compares a draft with (their sentences and
 * claims, src/similarity/conflict.ts), one file per note in VAULT/.memlint/cache/guard-claims/.
 * Building a long note's claims was most of a note write on a topical vault (issue 14: up to 20
 * notes of 100–200 KB per write), and the notes close to a draft recur from one write to the next.
 *
 * An entry is used only for the same bytes (the whole file, kept in the entry and compared, not its times: an edit within
 * one timestamp tick is still seen), the same build (CACHE_KEY) and the same maxFileBytes. It is
 * written with claims-codec.ts (JSON and typed arrays, not node:v8), which keeps Maps and Sets with their insertion order: the engine
 * returns the first conflict it meets, so the order is part of the answer. A long note's words, frames,
 * sentence subjects and sentences are stored as columns and decoded only where the engine reads them
 * (claims-lazy.ts: deserializing a 200 KB note's claims whole took ~5 ms; from COLUMNS_FROM sentences on). At most MAX_ENTRIES files
 * and MAX_BYTES bytes are kept: the least recently written go first. A corrupt or foreign file is a miss, written anew.
 */
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { claimsOf, noteClauses, type NoteClauses } from '../similarity/conflict.js';
import { adoptThingIndex, thingIndex, type NoteClaims, type ThingIndex } from '../similarity/claims.js';
import type { Sentence } from '../similarity/text.js';
import { writeCacheFile } from '../util/cache-dir.js';
import { FNV_OFFSET, fnvState } from '../similarity/minhash.js';
import { makeVaultFile, readMarkdownFile } from '../vault/file.js';
import { CACHE_KEY } from '../version.js';
import { decodeEntry, encodeEntry } from './claims-codec.js';
import { isStoredClaims, loadClaims, storeClaims, type StoredClaims } from './claims-lazy.js';

export const CLAIMS_DIR = join('.memlint', 'cache', 'guard-claims');
export const MAX_ENTRIES = 1000;
/**
 * Notes of at least this many sentences are stored as columns (claims-lazy.ts); shorter ones whole, as
 * before: the columns were measured to pay on long notes (deserializing them whole), while for a short
 * note both forms are cheap (valgrind counts of an old-shape note write moved ±4% from run to run either
 * way), so short notes stay on the path that was already proven.
 */
export const COLUMNS_FROM = 100;
/** And at most this many bytes in all (a 200 KB note's claims take ~2 MB; most notes' a few KB). */
export const MAX_BYTES = 64 * 1024 * 1024;
const MAGIC = 'memlint-guard-claims-7';

interface Entry {
  readonly magic: string;
  readonly build: string;
  readonly path: string;
  readonly maxBytes: number;
  /**
   * The file's bytes: an entry answers only for the very same bytes (compared whole, natively). A hash would need
   * node:crypto, whose loading cost every compared note write ~20 M instructions (session 16), more than comparing.
   */
  readonly bytes: Uint8Array;
  /** The claims in the form decoded where the engine reads (claims-lazy.ts), or as they were (`plain`: a short note, or a stem holding NUL). */
  readonly stored: StoredClaims | null;
  readonly plain: { readonly sentences: readonly Sentence[]; readonly claims: NoteClaims } | null;
  /**
   * The claims' thing index (claims.ts `thingIndex`), stored with them: building it reads every word of the note,
   * which on the stored form decodes the whole `words` column, and the conflict engine asks for it on every pair
   * that gets past values, frames and rules.
   */
  readonly things: ThingIndex;
}

const isThingIndex = (x: unknown): x is ThingIndex => {
  const t = x as Partial<ThingIndex> | null;
  return (
    !!t && Array.isArray(t.list) && Array.isArray(t.refused) && t.byKey instanceof Map && Array.isArray(t.refusedKeys)
  );
};

export interface ClaimsStore {
  /** The note's sentences and claims, from the cache when its bytes are unchanged; null when it cannot be read. */
  view(path: string): NoteClauses | null;
  /** Writes the entries computed since (read-write mode only). */
  save(): void;
  /** How many views came from the cache and how many were computed (for tests and timing). */
  readonly counts: { hits: number; misses: number };
}

/**
 * An entry's file name: 40 hex digits from the note's path (five FNV-1a hashes, seeded apart). Not a digest of
 * anything that must stay secret or unforgeable: an entry names its path and holds its bytes, so two paths with one
 * name only take each other's place.
 */
export function entryName(path: string): string {
  let name = '';
  for (let i = 0; i < 5; i++)
    name += (fnvState(FNV_OFFSET ^ Math.imul(i, 0x9e3779b9), `${i}\0${path}`) >>> 0).toString(16).padStart(8, '0');
  return name;
}

export function claimsStore(root: string, config: Config, mode: 'read-write' | 'read-only' | 'off'): ClaimsStore {
  const dir = join(root, CLAIMS_DIR);
  const maxBytes = config.maxFileBytes;
  const pending: { file: string; entry: Entry }[] = [];
  const counts = { hits: 0, misses: 0 };
  const fileOf = (path: string): string => join(dir, entryName(path));
  const abs = (path: string): string => join(root, ...path.split('/'));

  const cached = (path: string): NoteClauses | null => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs(path));
    } catch {
      return null;
    }
    if (bytes.length > maxBytes) return null;
    let e: Entry;
    try {
      e = decodeEntry(readFileSync(fileOf(path))) as Entry;
    } catch {
      return null;
    }
    if (
      e?.magic !== MAGIC ||
      e.build !== CACHE_KEY ||
      e.path !== path ||
      e.maxBytes !== maxBytes ||
      !(e.bytes instanceof Uint8Array) ||
      !bytes.equals(e.bytes)
    )
      return null;
    if (!isThingIndex(e.things)) return null;
    const view =
      e.stored && isStoredClaims(e.stored)
        ? loadClaims(e.stored)
        : e.plain
          ? { sentences: e.plain.sentences.map((s) => ({ s })), claims: e.plain.claims }
          : null;
    if (view) adoptThingIndex(view.claims, e.things);
    return view;
  };

  const computed = (path: string): NoteClauses | null => {
    let p;
    try {
      p = readMarkdownFile(path, abs(path), 'note', maxBytes);
    } catch {
      return null;
    }
    const view = noteClauses(makeVaultFile(p, []));
    // Kept only when the parse read the whole file (a file past maxBytes keeps its head only).
    if (mode === 'read-write' && p.bytes.length === p.size && p.size <= maxBytes) {
      const sentences = view.sentences.map(({ s }) => s);
      const claims = claimsOf(view);
      const stored = sentences.length >= COLUMNS_FROM ? storeClaims(sentences, claims) : null;
      const entry: Entry = {
        magic: MAGIC,
        build: CACHE_KEY,
        path,
        maxBytes,
        bytes: p.bytes,
        stored,
        // The subject is read lazily (a Proxy over the columns): stored as a plain array.
        plain: stored ? null : { sentences, claims: { ...claims, subject: [...claims.subject] } },
        things: thingIndex(claims),
      };
      pending.push({ file: fileOf(path), entry });
    }
    return view;
  };

  return {
    counts,
    view(path) {
      const hit = mode === 'off' ? null : cached(path);
      if (hit) {
        counts.hits++;
        return hit;
      }
      const v = computed(path);
      if (v) counts.misses++;
      return v;
    },
    save() {
      if (mode !== 'read-write' || pending.length === 0) return;
      try {
        for (const { file, entry } of pending) {
          let data: Buffer;
          try {
            data = encodeEntry(entry);
          } catch {
            continue; // a value the codec cannot keep exactly: this note's claims are computed each time
          }
          writeCacheFile(file, data);
        }
        prune(dir, MAX_ENTRIES, MAX_BYTES);
      } catch {
        /* a read-only vault: answered without caching */
      }
      pending.length = 0;
    },
  };
}

/** Past `maxEntries` files or `maxBytes` bytes, the least recently written go first (exported for tests). */
export function prune(dir: string, maxEntries: number, maxBytes: number): void {
  const files = readdirSync(dir)
    .filter((n) => /^[0-9a-f]{40}$/.test(n))
    .map((n) => ({ n, st: statSync(join(dir, n), { throwIfNoEntry: false }) }))
    .filter((f) => f.st !== undefined)
    .map(({ n, st }) => ({ n, t: st!.mtimeMs, size: st!.size }))
    .sort((a, b) => a.t - b.t || (a.n < b.n ? -1 : 1));
  let count = files.length;
  let bytes = files.reduce((sum, f) => sum + f.size, 0);
  for (const f of files) {
    if (count <= maxEntries && bytes <= maxBytes) break;
    try {
      unlinkSync(join(dir, f.n));
    } catch {
      /* gone already */
    }
    count--;
    bytes -= f.size;
  }
}
