/**
 * Which files make up a vault. fast-glob lists the tree without following symbolic links (so no
 * loop and no escape is possible); each link is then judged on its own: a link to a file inside the
 * vault is read through, one that leaves the vault or points nowhere is reported and skipped.
 */
import fg from 'fast-glob';
import { readlinkSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
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

/** Never part of the vault: state, version control, dependencies. Hidden folders are skipped too. */
export const ALWAYS_EXCLUDED = ['.memlint/**', '**/.git/**', '**/node_modules/**'];

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function discover(root: string): Discovery {
  const realRoot = realpathSync(root);
  // '**/*', not '**': fast-glob 3.3.3 silently drops file names holding a newline with '**'.
  const entries = fg.sync('**/*', {
    cwd: root,
    dot: false,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: ALWAYS_EXCLUDED,
    suppressErrors: true,
    absolute: false,
  });
  const markdown: DiscoveredFile[] = [];
  const other: string[] = [];
  const skipped: SkippedEntry[] = [];
  const realFiles = new Set<string>();
  const links: typeof entries = [];
  for (const e of entries) {
    const d = e.dirent;
    if (d.isSymbolicLink()) { links.push(e); continue; }
    if (!d.isFile()) continue;
    const absPath = `${root}${sep}${e.path.split('/').join(sep)}`;
    realFiles.add(`${realRoot}${sep}${e.path.split('/').join(sep)}`);
    if (e.path.toLowerCase().endsWith('.md')) markdown.push({ path: e.path, absPath, via: null });
    else other.push(e.path);
  }
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
    if (e.path.toLowerCase().endsWith('.md')) markdown.push({ path: e.path, absPath, via: 'symlink' });
    else other.push(e.path);
  }
  const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  markdown.sort(byPath);
  other.sort();
  skipped.sort(byPath);
  return { markdown, other, skipped };
}
