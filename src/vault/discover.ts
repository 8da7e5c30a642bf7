/**
 * Which files make up a vault: a readdir walk that never follows a symbolic link (so no loop and no
 * escape is possible); each link is then judged on its own: a link to a file inside the vault is
 * read through, one that leaves the vault or points nowhere is reported and skipped. Hidden folders
 * (.memlint, .git) and node_modules are never entered. This replaced fast-glob: 7 ms instead of
 * 27 ms for 10,000 files, and fast-glob's '**' silently dropped a file name holding a newline
 * (BENCHMARKS.md).
 */
import { readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { sep } from 'node:path';
import { settledBefore, trustedBefore } from '../util/cache-dir.js';
import { checkFault } from '../util/fault.js';
import type { SkippedEntry } from './model.js';

export interface DiscoveredFile {
  readonly path: string;
  readonly absPath: string;
  /** Set when the file was reached through a symbolic link inside the vault. */
  readonly via: 'symlink' | null;
}

export interface Discovery {
  readonly markdown: DiscoveredFile[];
  readonly other: string[];
  readonly skipped: SkippedEntry[];
}

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

type EntryKind = 'f' | 'd' | 'l' | 'o';

const MARKDOWN = /\.md$/i;

/**
 * A folder's entries as one run read them (guard keeps them between runs): reused while the folder's
 * mtime and ctime are unchanged, since adding, removing or renaming an entry changes both. A file
 * edited in place does not change its folder, which is why guard still compares each note's own stat.
 */
export interface FolderListing {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** Name, kind ('f' file, 'd' folder, 'l' symbolic link, 'o' other), name, kind, … */
  readonly entries: readonly string[];
}

export interface DiscoverOptions {
  /** Listings from an earlier run: a folder whose times are unchanged is not read again. */
  readonly listings?: ReadonlyMap<string, FolderListing>;
  /** Filled with this run's listings, for folders last changed long enough ago to trust (as in git's racy-clean rule). */
  readonly record?: Map<string, FolderListing>;
  /** Default 2,000 ms. */
  readonly racyMarginMs?: number;
}

const kindOf = (d: Dirent): EntryKind => (d.isDirectory() ? 'd' : d.isFile() ? 'f' : d.isSymbolicLink() ? 'l' : 'o');

function walk(root: string, skipped: SkippedEntry[], options: DiscoverOptions): { path: string; kind: EntryKind }[] {
  const out: { path: string; kind: EntryKind }[] = [];
  const stack: string[] = [''];
  const keepTimes = options.listings !== undefined || options.record !== undefined;
  const before = trustedBefore(options.racyMarginMs);
  while (stack.length) {
    const rel = stack.pop()!;
    const abs = rel ? `${root}${sep}${rel.split('/').join(sep)}` : root;
    const st = keepTimes ? statSync(abs, { throwIfNoEntry: false }) : undefined;
    const known = st ? options.listings?.get(rel) : undefined;
    let entries: readonly string[];
    if (known && st && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs) {
      entries = known.entries;
    } else {
      let dirents: Dirent[];
      try {
        checkFault('readdir', abs);
        dirents = readdirSync(abs, { withFileTypes: true });
      } catch (e) {
        // The vault folder itself unreadable is the person's to fix (exit 2, one line naming it), not an empty vault.
        if (!rel) throw e;
        skipped.push({ path: rel, reason: 'unreadable', detail: `folder not readable (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
        continue;
      }
      const flat: string[] = [];
      for (const d of dirents) if (!d.name.startsWith('.') && d.name !== 'node_modules') flat.push(d.name, kindOf(d));
      entries = flat;
    }
    if (st && options.record && settledBefore(st, before)) options.record.set(rel, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, entries });
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const path = rel ? `${rel}/${entries[i]}` : entries[i]!;
      const kind = entries[i + 1] as EntryKind;
      if (kind === 'd') stack.push(path);
      else out.push({ path, kind });
    }
  }
  return out;
}

export function discover(root: string, options: DiscoverOptions = {}): Discovery {
  const realRoot = realpathSync(root);
  const markdown: DiscoveredFile[] = [];
  const other: string[] = [];
  const skipped: SkippedEntry[] = [];
  const entries = walk(root, skipped, options);
  const realFiles = new Set<string>();
  const links: typeof entries = [];
  for (const e of entries) {
    if (e.kind === 'l') { links.push(e); continue; }
    if (e.kind !== 'f') continue;
    const absPath = sep === '/' ? `${root}/${e.path}` : `${root}${sep}${e.path.split('/').join(sep)}`;
    if (MARKDOWN.test(e.path)) markdown.push({ path: e.path, absPath, via: null });
    else other.push(e.path);
  }
  if (links.length) for (const e of entries) if (e.kind === 'f') realFiles.add(`${realRoot}${sep}${e.path.split('/').join(sep)}`);
  for (const e of links) {
    const absPath = `${root}${sep}${e.path.split('/').join(sep)}`;
    let real: string;
    try {
      real = realpathSync(absPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      skipped.push({ path: e.path, reason: 'symlink-broken', detail: code === 'ELOOP' ? 'symbolic link loop' : `symbolic link to nothing (${code})` });
      continue;
    }
    if (!isInside(realRoot, real)) {
      skipped.push({ path: e.path, reason: 'symlink-outside', detail: `symbolic link to ${readlinkSync(absPath)}, outside the vault` });
      continue;
    }
    let isFile: boolean;
    try { isFile = statSync(real).isFile(); } catch { continue; }
    if (!isFile) continue; // a folder inside the vault is listed under its real path already
    if (realFiles.has(real)) {
      skipped.push({ path: e.path, reason: 'symlink-duplicate', detail: `symbolic link to ${real.slice(realRoot.length + 1).split(sep).join('/')}, read once under its own name` });
      continue;
    }
    if (MARKDOWN.test(e.path)) markdown.push({ path: e.path, absPath, via: 'symlink' });
    else other.push(e.path);
  }
  const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  markdown.sort(byPath);
  other.sort();
  skipped.sort(byPath);
  return { markdown, other, skipped };
}
