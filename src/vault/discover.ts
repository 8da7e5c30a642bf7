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

function walk(root: string, skipped: SkippedEntry[]): { path: string; dirent: Dirent }[] {
  const out: { path: string; dirent: Dirent }[] = [];
  const stack: string[] = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(rel ? `${root}${sep}${rel.split('/').join(sep)}` : root, { withFileTypes: true });
    } catch (e) {
      if (rel) skipped.push({ path: rel, reason: 'unreadable', detail: `folder not readable (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    for (const d of entries) {
      if (d.name.startsWith('.') || d.name === 'node_modules') continue;
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) stack.push(path);
      else out.push({ path, dirent: d });
    }
  }
  return out;
}

export function discover(root: string): Discovery {
  const realRoot = realpathSync(root);
  const markdown: DiscoveredFile[] = [];
  const other: string[] = [];
  const skipped: SkippedEntry[] = [];
  const entries = walk(root, skipped);
  const realFiles = new Set<string>();
  const links: typeof entries = [];
  for (const e of entries) {
    const d = e.dirent;
    if (d.isSymbolicLink()) { links.push(e); continue; }
    if (!d.isFile()) continue;
    const absPath = sep === '/' ? `${root}/${e.path}` : `${root}${sep}${e.path.split('/').join(sep)}`;
    if (e.path.toLowerCase().endsWith('.md')) markdown.push({ path: e.path, absPath, via: null });
    else other.push(e.path);
  }
  if (links.length) for (const e of entries) if (e.dirent.isFile()) realFiles.add(`${realRoot}${sep}${e.path.split('/').join(sep)}`);
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
