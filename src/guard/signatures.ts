/** Every note's signature, from the cache where the file is unchanged, else read and computed. */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { signature } from '../similarity/minhash.js';
import { statedText, textShingleHashes } from '../similarity/text.js';
import type { Discovery } from '../vault/discover.js';
import { roleClassifier } from '../vault/roles.js';
import { readMarkdownFile } from '../vault/file.js';
import { DELTA_FILE, readCache, writeCache, type NoteSignature, type SignatureTable } from './cache.js';
import { statFile } from '../util/file-stat.js';
import { mark } from '../util/timing.js';
import { checkDeadline, type Deadline } from './deadline.js';

export interface SignatureSet {
  /** Open on the cache file until `closeSignatures` (its shingles and links are read from it when asked). */
  readonly table: SignatureTable | null;
  /** Entries of `table` whose files are unchanged (same size and mtime). */
  readonly valid: readonly number[];
  /** Notes held in memory: read and computed now (new, changed, or no cache), or taken from the delta file. */
  readonly fresh: readonly NoteSignature[];
  readonly fromCache: number;
  readonly computed: number;
  /** Notes read but given no signature (too large, not text): their links and name, for reachability. */
  readonly unsigned: readonly {
    readonly path: string;
    readonly name: string | null;
    readonly links: readonly string[];
  }[];
  /** Notes that could not be read at all (a vault load leaves them out too). */
  readonly unreadable: readonly string[];
}

/** A parse's links as the cache keeps them: kind, target, … (mentions left out: they do not make a note reachable). */
export const flatLinks = (links: readonly { kind: string; target: string }[]): string[] => {
  const out: string[] = [];
  for (const l of links) if (l.kind !== 'mention') out.push(l.kind, l.target);
  return out;
};

/**
 * At most this many entries go to the delta file (DELTA_FILE) before the whole cache is written again: enough for
 * the notes an agent edits between two consolidations, few enough that holding them in memory costs nothing.
 */
export const deltaLimit = (notes: number): number => Math.max(64, Math.ceil(notes / 64));

/** 'rebuild': the cache is not read (it was found corrupt), and is written anew. */
export type CacheMode = 'read-write' | 'read-only' | 'off' | 'rebuild';

/** `found` is the vault's listing (guard walks it once, for the kind and for this). */
export function noteSignatures(
  root: string,
  config: Config,
  found: Discovery,
  options: { cache: CacheMode; deadline?: Deadline },
): SignatureSet {
  const roleOf = roleClassifier(config, 'claude');
  const reading = options.cache === 'read-write' || options.cache === 'read-only';
  const table = reading ? readCache(root) : null;
  // The entries written since the table (DELTA_FILE): few, held in memory, looked up by path.
  const delta = new Map<string, NoteSignature>();
  if (reading && table) {
    const d = readCache(root, DELTA_FILE);
    if (d) {
      try {
        d.loadAll();
        for (let i = 0; i < d.paths.length; i++) delta.set(d.paths[i]!, d.held(i));
      } catch {
        delta.clear(); // a delta that does not read whole is not used (and written anew)
      } finally {
        d.close();
      }
    }
  }
  mark('  read cache');
  try {
    const valid: number[] = [];
    const fresh: NoteSignature[] = [];
    const unsigned: { path: string; name: string | null; links: readonly string[] }[] = [];
    const unreadable: string[] = [];
    let late = false;
    let reads = 0;
    let computed = 0;
    let fromDelta = 0;
    // Notes in `fresh` that have an entry in the table too (changed since it was written).
    let superseded = 0;
    const paths = table?.paths;
    let j = 0;
    for (const f of found.markdown) {
      if (roleOf(f.path) !== 'note') continue;
      // Past the bound, stop reading; what was computed is still cached below, so the next call goes on from there.
      if (options.deadline !== undefined && (++reads & 63) === 0 && Date.now() > options.deadline) {
        late = true;
        break;
      }
      // The cache's paths and the listing are both sorted by UTF-16 order: walked side by side (no map of
      // 10k paths). Were the orders ever to differ, an entry passed over is read as new: same answer.
      let i: number | undefined;
      if (paths) {
        while (j < paths.length && paths[j]! < f.path) j++;
        if (paths[j] === f.path) i = j;
      }
      const held = delta.size > 0 ? delta.get(f.path) : undefined;
      if (i !== undefined || held) {
        // Only a cached note needs a stat of its own: reading a note gives its size and mtime anyway.
        const st = statFile(f.absPath);
        if (!st) {
          unreadable.push(f.path);
          continue;
        }
        if (held && held.size === st.size && held.mtimeMs === st.mtimeMs) {
          fresh.push(held);
          fromDelta++;
          if (i !== undefined) superseded++;
          continue;
        }
        if (i !== undefined && table!.sizes[i] === st.size && table!.mtimes[i] === st.mtimeMs) {
          valid.push(i);
          continue;
        }
      }
      let parsed;
      try {
        parsed = readMarkdownFile(f.path, f.absPath, 'note', config.maxFileBytes);
      } catch {
        unreadable.push(f.path);
        continue;
      }
      const links = flatLinks(parsed.scan.links);
      if (parsed.problem && parsed.problem.kind !== 'invalid-utf8') {
        unsigned.push({ path: f.path, name: parsed.meta.name, links });
        continue;
      }
      const hashes = textShingleHashes(statedText(parsed));
      const meta = {
        name: parsed.meta.name,
        type: parsed.meta.type,
        modified: parsed.meta.modified,
        origin: parsed.meta.origin,
      };
      computed++;
      if (i !== undefined) superseded++;
      fresh.push({
        path: f.path,
        size: parsed.size,
        mtimeMs: parsed.mtimeMs,
        signature: signature(hashes),
        shingles: hashes,
        meta: () => meta,
        links: () => links,
      });
    }
    const writing = options.cache === 'read-write' || options.cache === 'rebuild';
    // The table's entries no note answers to now: notes removed since (or not reached, past the bound).
    const dead = table ? table.paths.length - valid.length - superseded : 0;
    const limit = deltaLimit(valid.length + fresh.length);
    if (writing && (!table || late || fresh.length > limit || dead > limit)) {
      // Stopped early: the entries not reached yet are kept as they were (each is checked by size and mtime when read).
      const seen = late ? new Set([...valid.map((i) => table!.paths[i]!), ...fresh.map((n) => n.path)]) : null;
      const keep = seen && table ? table.paths.map((_, i) => i).filter((i) => !seen.has(table.paths[i]!)) : [];
      // Every kept entry's shingles are copied into the new file: read them in one call.
      table?.loadAll();
      const all = [...valid.map((i) => table!.note(i)), ...keep.map((i) => table!.note(i)), ...fresh].sort(byPath);
      try {
        writeCache(root, all);
      } catch {
        /* a read-only vault: answer without caching */
      }
      try {
        unlinkSync(join(root, DELTA_FILE)); // its entries are in the table now (or were not read: a rebuild)
      } catch {
        /* none */
      }
    } else if (writing && (computed > 0 || fromDelta !== delta.size)) {
      // Few notes changed since the table: only their entries are written (the delta), the table stays as it is.
      try {
        writeCache(root, [...fresh].sort(byPath), DELTA_FILE);
      } catch {
        /* a read-only vault: answer without caching */
      }
    }
    if (late) checkDeadline(options.deadline, `after reading ${fresh.length} notes (cached for the next call)`);
    return { table, valid, fresh, fromCache: valid.length + fromDelta, computed, unsigned, unreadable };
  } catch (e) {
    table?.close();
    throw e;
  }
}

const byPath = (a: NoteSignature, b: NoteSignature): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Closes the cache file a signature set read from (idempotent; the set's counts and paths stay usable). */
export function closeSignatures(sigs: SignatureSet | undefined): void {
  sigs?.table?.close();
}
