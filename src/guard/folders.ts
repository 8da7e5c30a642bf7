/**
 * Guard's folder listings, VAULT/.memlint/cache/folders-v1.json: each folder's mtime, ctime and
 * entries as discovery last read them, so that a guard call reads again only the folders that
 * changed (vault/discover.ts says why that is safe). Corrupt or foreign: ignored and rewritten.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../util/cache-dir.js';
import type { FolderListing } from '../vault/discover.js';
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
