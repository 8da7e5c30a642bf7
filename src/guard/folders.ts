/**
 * Guard's folder listings, VAULT/.memlint/cache/folders-v1.json: each folder's mtime, ctime and
 * entries as discovery last read them, so that a guard call reads again only the folders that
 * changed (vault/discover.ts says why that is safe). Corrupt or foreign: ignored and rewritten.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { writeCacheFile } from '../util/cache-dir.js';
import { absolutePath, discover, type DiscoveredFile, type Discovery, type FolderListing } from '../vault/discover.js';
import { CACHE_KEY } from '../version.js';

export const FOLDERS_FILE = join('.memlint', 'cache', 'folders-v1.json');
const MAGIC = 'memlint-folders-2';
const KINDS = /^[fdlo]*$/;

export function readFolderListings(vaultRoot: string): Map<string, FolderListing> | undefined {
  try {
    const data = JSON.parse(readFileSync(join(vaultRoot, FOLDERS_FILE), 'utf8')) as {
      magic?: unknown;
      version?: unknown;
      folders?: unknown;
    };
    if (data.magic !== MAGIC || data.version !== CACHE_KEY || typeof data.folders !== 'object' || data.folders === null)
      return undefined;
    const out = new Map<string, FolderListing>();
    for (const [rel, v] of Object.entries(data.folders as Record<string, unknown>)) {
      // [mtime, ctime, names joined by NUL (no file name holds one), one kind letter per name]
      if (
        !Array.isArray(v) ||
        v.length !== 4 ||
        typeof v[0] !== 'number' ||
        typeof v[1] !== 'number' ||
        typeof v[2] !== 'string' ||
        typeof v[3] !== 'string'
      )
        return undefined;
      const kinds = v[3];
      const names = kinds.length === 0 ? [] : v[2].split('\0');
      if (names.length !== kinds.length || !KINDS.test(kinds)) return undefined;
      const entries: string[] = new Array<string>(names.length * 2);
      for (let i = 0; i < names.length; i++) {
        entries[2 * i] = names[i]!;
        entries[2 * i + 1] = kinds[i]!;
      }
      out.set(rel, { mtimeMs: v[0], ctimeMs: v[1], entries });
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Writes the listings when they differ from those read. Never throws: a read-only vault still gets its answer. */
export function writeFolderListings(
  vaultRoot: string,
  listings: ReadonlyMap<string, FolderListing>,
  before: ReadonlyMap<string, FolderListing> | undefined,
): void {
  const same = (rel: string, l: FolderListing): boolean => {
    const b = before?.get(rel);
    return b !== undefined && b.mtimeMs === l.mtimeMs && b.ctimeMs === l.ctimeMs && b.entries === l.entries; // reused: the same array
  };
  if (before && before.size === listings.size && [...listings].every(([rel, l]) => same(rel, l))) return;
  const folders: Record<string, [number, number, string, string]> = {};
  for (const [rel, l] of listings) {
    const names: string[] = [];
    let kinds = '';
    for (let i = 0; i + 1 < l.entries.length; i += 2) {
      names.push(l.entries[i]!);
      kinds += l.entries[i + 1]!;
    }
    folders[rel] = [l.mtimeMs, l.ctimeMs, names.join('\0'), kinds];
  }
  try {
    const file = join(vaultRoot, FOLDERS_FILE);
    writeCacheFile(file, JSON.stringify({ magic: MAGIC, version: CACHE_KEY, folders }));
  } catch {
    /* answer without caching */
  }
}

/**
 * The whole discovery as the last walk found it, VAULT/.memlint/cache/discovery-v1.json: the sorted
 * markdown and other paths, and the times of every folder the walk read. While every one of those
 * folders has its times unchanged, a walk with the listings above would read no folder again and
 * build exactly this result, so it is given back without the walk (on the topical bench shape at
 * 10k, building 10,000 paths, their objects and the sort was ~27 ms of a ~215 ms note write).
 * Stored only for a walk that can be replayed from times alone: every folder it read was old enough
 * to trust (racy clean) and it met no symbolic link (a link's target can change while its folder
 * does not), no unreadable folder and no name that is not UTF-8 (nothing in `skipped`).
 */
export const DISCOVERY_FILE = join('.memlint', 'cache', 'discovery-v1.json');
const DISCOVERY_MAGIC = 'memlint-discovery-1';

interface StoredDiscovery {
  readonly magic: string;
  readonly version: string;
  readonly root: string;
  /** rel, mtimeMs, ctimeMs, rel, … for every folder the walk read. */
  readonly folders: readonly (string | number)[];
  /** Paths joined by NUL (no file name holds one), in discovery's order. */
  readonly markdown: string;
  readonly other: string;
}

const splitPaths = (s: string): string[] => (s === '' ? [] : s.split('\0'));
/**
 * A folder path with a segment no walk yields: empty, hidden (`.`, `..`, `.memlint`), node_modules, or (on Windows)
 * holding a separator. A damaged or crafted file must not send guard out of the vault: its folders are checked with
 * this, and each file must sit directly in one of them.
 */
const BAD_SEGMENT =
  sep === '/'
    ? /(?:^|[\0/])(?:[\0/]|$|\.|node_modules(?:[\0/]|$))/
    : /(?:^|[\0/])(?:[\0/]|$|\.|node_modules(?:[\0/]|$))|\\/;
const parentOf = (path: string): string => {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
};

/** The stored discovery when no folder it read has changed since; undefined otherwise (or missing, corrupt, foreign). */
export function readDiscovery(root: string): Discovery | undefined {
  let d: StoredDiscovery;
  try {
    d = JSON.parse(readFileSync(join(root, DISCOVERY_FILE), 'utf8')) as StoredDiscovery;
  } catch {
    return undefined;
  }
  if (
    d?.magic !== DISCOVERY_MAGIC ||
    d.version !== CACHE_KEY ||
    d.root !== root ||
    !Array.isArray(d.folders) ||
    d.folders.length % 3 !== 0 ||
    typeof d.markdown !== 'string' ||
    typeof d.other !== 'string'
  )
    return undefined;
  // Each folder a real one (not a link: the walk never enters one), its parent listed before it, the root first.
  // Each file directly in a listed folder (its name holds no separator).
  const f = d.folders;
  const folders = new Set<string>();
  for (let i = 0; i < f.length; i += 3) {
    const rel = f[i],
      mtimeMs = f[i + 1],
      ctimeMs = f[i + 2];
    if (typeof rel !== 'string' || typeof mtimeMs !== 'number' || typeof ctimeMs !== 'number') return undefined;
    if (rel ? BAD_SEGMENT.test(rel) || !folders.has(parentOf(rel)) : i !== 0) return undefined;
    const st = rel
      ? lstatSync(absolutePath(root, rel), { throwIfNoEntry: false })
      : statSync(root, { throwIfNoEntry: false });
    if (!st || st.mtimeMs !== mtimeMs || st.ctimeMs !== ctimeMs || !st.isDirectory()) return undefined;
    folders.add(rel);
  }
  const paths = splitPaths(d.markdown);
  const other = splitPaths(d.other);
  for (const p of other) if (!folders.has(parentOf(p))) return undefined;
  const markdown = new Array<DiscoveredFile>(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (!folders.has(parentOf(path))) return undefined;
    markdown[i] = { path, absPath: absolutePath(root, path), via: null };
  }
  return { markdown, other, skipped: [] };
}

/**
 * Stores `found` when the walk that made it can be replayed from folder times alone (see above): `record` holds the
 * listing of every folder it read (a folder left out was too new to trust). Otherwise the stored one is left: it is
 * checked against its own folders' times, which a change since has moved. Never throws.
 */
export function writeDiscovery(root: string, found: Discovery, record: ReadonlyMap<string, FolderListing>): void {
  if (found.skipped.length > 0 || !record.has('')) return;
  const folders: (string | number)[] = [];
  for (const [rel, l] of record) {
    for (let i = 0; i + 1 < l.entries.length; i += 2) {
      const kind = l.entries[i + 1];
      if (kind === 'l') return;
      if (kind === 'd' && !record.has(rel ? `${rel}/${l.entries[i]!}` : l.entries[i]!)) return;
    }
    folders.push(rel, l.mtimeMs, l.ctimeMs);
  }
  if (found.markdown.some((m) => m.via !== null || m.raw !== undefined)) return;
  const stored: StoredDiscovery = {
    magic: DISCOVERY_MAGIC,
    version: CACHE_KEY,
    root,
    folders,
    markdown: found.markdown.map((m) => m.path).join('\0'),
    other: found.other.join('\0'),
  };
  try {
    writeCacheFile(join(root, DISCOVERY_FILE), JSON.stringify(stored));
  } catch {
    /* answer without caching */
  }
}

/**
 * Discovery through guard's caches: the stored result while no folder changed, else a walk that reads again only
 * the folders that did (the listings), whose result is stored for the next call. `write` false: nothing is written.
 */
export function cachedDiscovery(root: string, write: boolean, racyMarginMs?: number): Discovery {
  const stored = readDiscovery(root);
  if (stored) return stored;
  const listings = readFolderListings(root);
  const record = write ? new Map<string, FolderListing>() : undefined;
  const found = discover(root, {
    ...(listings ? { listings } : {}),
    ...(record ? { record } : {}),
    ...(racyMarginMs !== undefined ? { racyMarginMs } : {}),
  });
  if (record) {
    writeFolderListings(root, record, listings);
    writeDiscovery(root, found, record);
  }
  return found;
}
