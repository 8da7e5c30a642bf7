/**
 * What every cache shares: VAULT/.memlint/cache/, made on first use with a `.gitignore` of `*` (no
 * cache is ever committed); cache files written atomically without fsync (a lost cache is only
 * rebuilt); and git's "racy clean" rule for trusting a file's times.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { checkStatePath, safeStateDir } from './state-dir.js';

export function ensureCacheDir(dir: string): void {
  if (dirname(dir).endsWith(`${sep}.memlint`)) ensureStateDir(dirname(dirname(dir)));
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore))
    writeFileSync(ignore, '# Made by memlint: caches are rebuilt when missing; never commit them.\n*\n');
}

const STATE_IGNORE_MARK = '# Made by memlint';

/**
 * VAULT/.memlint/ holds pre-images of notes (runs/), journals, caches and proposals: a `.gitignore`
 * keeps `git add -A` from committing them. With `commitProposals`, proposals/ stays visible to git.
 * A .gitignore a person wrote (without memlint's first line) is never touched.
 */
export function ensureStateDir(vaultRoot: string, commitProposals?: boolean): void {
  const dir = safeStateDir(vaultRoot); // refuses a state folder that is a link or leaves the vault
  mkdirSync(dir, { recursive: true });
  const file = join(dir, '.gitignore');
  const exists = existsSync(file);
  if (exists && commitProposals === undefined) return;
  const text = commitProposals
    ? `${STATE_IGNORE_MARK} (commitProposals: true): runs, journals and caches stay out of git; proposals/ does not.\n*\n!.gitignore\n!proposals/\n!proposals/**\n`
    : `${STATE_IGNORE_MARK}: pre-images of notes (runs/), journals, caches and proposals stay out of git.\n# Set "commitProposals": true in memlint.config.json to keep proposals/ in git.\n*\n`;
  if (exists) {
    const current = readFileSync(file, 'utf8');
    if (current === text || !current.startsWith(STATE_IGNORE_MARK)) return;
  }
  writeFileAtomic(file, text, 0o644, { durable: false });
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

export const settledBefore = (st: { readonly mtimeMs: number; readonly ctimeMs: number }, before: number): boolean =>
  st.mtimeMs < before && st.ctimeMs < before;
