/**
 * Which files make up a vault: a readdir walk that never follows a symbolic link (so no loop and no
 * escape is possible); each link is then judged on its own: a link to a file inside the vault is
 * read through, one that leaves the vault or points nowhere is reported and skipped. Hidden folders
 * (.memlint, .git) and node_modules are never entered. This replaced fast-glob, which was slower
 * (numbers in BENCHMARKS.md) and whose '**' silently dropped a file name holding a newline.
 */
import { readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { sep } from 'node:path';
import { settledBefore, trustedBefore } from '../util/cache-dir.js';
import { checkFault } from '../util/fault.js';
import { isInside } from '../util/paths.js';
import type { SkippedEntry } from './model.js';

export interface DiscoveredFile {
  readonly path: string;
  readonly absPath: string;
  /** Set when the file was reached through a symbolic link inside the vault. */
  readonly via: 'symlink' | null;
  /** The file's absolute path as bytes, when its name is not valid UTF-8 (`path` then shows the bad bytes as \xNN). */
  readonly raw?: Buffer;
}

export interface Discovery {
  readonly markdown: DiscoveredFile[];
  readonly other: string[];
  readonly skipped: SkippedEntry[];
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

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A file name's bytes as text: valid UTF-8 kept, every other byte as \xNN. */
export function escapeNameBytes(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    /* escaped below */
  }
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len > 0) {
      try {
        out += UTF8.decode(bytes.subarray(i, i + len));
        i += len;
        continue;
      } catch {
        /* a bad sequence: escape its first byte */
      }
    }
    out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
    i++;
  }
  return out;
}

function escapeBadNames(abs: string, rel: string, flat: string[], rawNames: Map<string, Buffer>): void {
  let raw: Buffer[];
  try {
    raw = readdirSync(abs, { encoding: 'buffer' });
  } catch {
    return;
  }
  const escaped = new Map<string, Buffer>();
  for (const b of raw) {
    const name = escapeNameBytes(b);
    if (name !== b.toString('utf8')) escaped.set(name, b);
  }
  // Names with U+FFFD, in readdir order, are the escaped ones in the same order.
  const bad = [...escaped];
  let k = 0;
  for (let i = 0; i < flat.length; i += 2) {
    if (!flat[i]!.includes('\uFFFD') || k >= bad.length) continue;
    const [name, bytes] = bad[k++]!;
    flat[i] = name;
    rawNames.set(rel ? `${rel}/${name}` : name, Buffer.concat([Buffer.from(`${abs}${sep}`), bytes]));
  }
}

function walk(
  root: string,
  skipped: SkippedEntry[],
  options: DiscoverOptions,
  rawNames: Map<string, Buffer> = new Map(),
): { path: string; kind: EntryKind }[] {
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
        skipped.push({
          path: rel,
          reason: 'unreadable',
          detail: `folder not readable (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
        });
        continue;
      }
      const flat: string[] = [];
      for (const d of dirents) if (!d.name.startsWith('.') && d.name !== 'node_modules') flat.push(d.name, kindOf(d));
      // A name that is not valid UTF-8 decodes with U+FFFD and cannot be opened by that string: list the
      // folder again as bytes and name such a file by its bytes (escaped), reachable through `rawNames`.
      if (flat.some((n) => n.includes('\uFFFD'))) escapeBadNames(abs, rel, flat, rawNames);
      entries = flat;
    }
    if (st && options.record && settledBefore(st, before))
      options.record.set(rel, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, entries });
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const path = rel ? `${rel}/${entries[i]}` : entries[i]!;
      const kind = entries[i + 1] as EntryKind;
      if (kind === 'd') stack.push(path);
      else out.push({ path, kind });
    }
  }
  return out;
}

/** A vault path (`/`-separated) under the root as given. */
export const absolutePath = (root: string, path: string): string =>
  sep === '/' ? `${root}/${path}` : `${root}${sep}${path.split('/').join(sep)}`;

export function discover(root: string, options: DiscoverOptions = {}): Discovery {
  const realRoot = realpathSync(root);
  const markdown: DiscoveredFile[] = [];
  const other: string[] = [];
  const skipped: SkippedEntry[] = [];
  const rawNames = new Map<string, Buffer>();
  const entries = walk(root, skipped, options, rawNames);
  const realFiles = new Set<string>();
  const links: typeof entries = [];
  for (const e of entries) {
    if (e.kind === 'l') {
      links.push(e);
      continue;
    }
    if (e.kind !== 'f') continue;
    const absPath = absolutePath(root, e.path);
    const raw = rawNames.get(e.path);
    if (raw)
      skipped.push({
        path: e.path,
        reason: 'bad-name',
        detail: 'file name is not valid UTF-8 (its bad bytes shown as \\xNN)',
      });
    if (MARKDOWN.test(e.path)) markdown.push({ path: e.path, absPath, via: null, ...(raw ? { raw } : {}) });
    else other.push(e.path);
  }
  if (links.length)
    for (const e of entries) if (e.kind === 'f') realFiles.add(`${realRoot}${sep}${e.path.split('/').join(sep)}`);
  for (const e of links) {
    const absPath = `${root}${sep}${e.path.split('/').join(sep)}`;
    let real: string;
    try {
      real = realpathSync(absPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      skipped.push({
        path: e.path,
        reason: 'symlink-broken',
        detail: code === 'ELOOP' ? 'symbolic link loop' : `symbolic link to nothing (${code})`,
      });
      continue;
    }
    if (!isInside(realRoot, real)) {
      skipped.push({
        path: e.path,
        reason: 'symlink-outside',
        detail: `symbolic link to ${readlinkSync(absPath)}, outside the vault`,
      });
      continue;
    }
    let isFile: boolean;
    try {
      isFile = statSync(real).isFile();
    } catch {
      continue;
    }
    if (!isFile) continue; // a folder inside the vault is listed under its real path already
    if (realFiles.has(real)) {
      skipped.push({
        path: e.path,
        reason: 'symlink-duplicate',
        detail: `symbolic link to ${real
          .slice(realRoot.length + 1)
          .split(sep)
          .join('/')}, read once under its own name`,
      });
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
