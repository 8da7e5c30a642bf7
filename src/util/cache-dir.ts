/**
 * What every cache shares: VAULT/.memlint/cache/, made on first use with a `.gitignore` of `*` (no
 * cache is ever committed); cache files written atomically without fsync (a lost cache is only
 * rebuilt); and git's "racy clean" rule for trusting a file's times.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { checkStatePath } from './state-dir.js';

export function ensureCacheDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Made by memlint: caches are rebuilt when missing; never commit them.\n*\n');
}

/** Writes one cache file (its folder made as above). Throws like any write: callers decide. */
export function writeCacheFile(file: string, data: string | Uint8Array): void {
  // A `.memlint` (or `.memlint/cache`) that is a link out of the vault is refused, not written through.
  checkStatePath(file);
  ensureCacheDir(dirname(file));
  writeFileAtomic(file, data, 0o644, { durable: false });
}

/**
 * A change made within a file system's timestamp tick of the moment a file (or folder) was read
 * leaves its times alike, so times are trusted only for what last changed this long before.
 */
export const RACY_MARGIN_MS = 2000;

/** The instant before which a change is old enough for its times to be trusted. */
export const trustedBefore = (marginMs: number = RACY_MARGIN_MS): number => Date.now() - marginMs;

export const settledBefore = (st: { readonly mtimeMs: number; readonly ctimeMs: number }, before: number): boolean => st.mtimeMs < before && st.ctimeMs < before;
