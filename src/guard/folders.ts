/**
 * Guard's folder listings, VAULT/.memlint/cache/folders-v1.json: each folder's mtime, ctime and
 * entries as discovery last read them, so that a guard call reads again only the folders that
 * changed (vault/discover.ts says why that is safe). Corrupt or foreign: ignored and rewritten.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { ensureCacheDir } from '../util/cache-dir.js';
import type { FolderListing } from '../vault/discover.js';
import { CACHE_KEY } from '../version.js';

export const FOLDERS_FILE = join('.memlint', 'cache', 'folders-v1.json');
const MAGIC = 'memlint-folders-1';

export function readFolderListings(vaultRoot: string): Map<string, FolderListing> | undefined {
  try {
    const data = JSON.parse(readFileSync(join(vaultRoot, FOLDERS_FILE), 'utf8')) as { magic?: unknown; version?: unknown; folders?: unknown };
    if (data.magic !== MAGIC || data.version !== CACHE_KEY || typeof data.folders !== 'object' || data.folders === null) return undefined;
    const out = new Map<string, FolderListing>();
    for (const [rel, v] of Object.entries(data.folders as Record<string, unknown>)) {
      if (!Array.isArray(v) || v.length !== 3 || typeof v[0] !== 'number' || typeof v[1] !== 'number' || !Array.isArray(v[2])) return undefined;
      const entries = v[2] as unknown[];
      if (entries.length % 2 !== 0 || !entries.every((e, i) => typeof e === 'string' && (i % 2 === 0 || /^[fdlo]$/.test(e)))) return undefined;
      out.set(rel, { mtimeMs: v[0], ctimeMs: v[1], entries: entries as string[] });
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Writes the listings when they differ from those read. Never throws: a read-only vault still gets its answer. */
export function writeFolderListings(vaultRoot: string, listings: ReadonlyMap<string, FolderListing>, before: ReadonlyMap<string, FolderListing> | undefined): void {
  const same = (rel: string, l: FolderListing): boolean => {
    const b = before?.get(rel);
    return b !== undefined && b.mtimeMs === l.mtimeMs && b.ctimeMs === l.ctimeMs && b.entries === l.entries; // reused: the same array
  };
  if (before && before.size === listings.size && [...listings].every(([rel, l]) => same(rel, l))) return;
  const folders: Record<string, [number, number, readonly string[]]> = {};
  for (const [rel, l] of listings) folders[rel] = [l.mtimeMs, l.ctimeMs, l.entries];
  try {
    const file = join(vaultRoot, FOLDERS_FILE);
    ensureCacheDir(dirname(file));
    writeFileAtomic(file, JSON.stringify({ magic: MAGIC, version: CACHE_KEY, folders }), 0o644, { durable: false });
  } catch { /* answer without caching */ }
}
