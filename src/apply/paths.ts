/**
 * A proposal is a file a person edits, and a vault's state folder travels with the vault: every path
 * read from either (and from the config) is checked here before anything is planned or written.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { count } from '../util/counters.js';
import { isInside } from '../util/paths.js';
import type { Vault } from '../vault/model.js';

export type PathRole = 'note' | 'index' | 'any-markdown';

/** The only hidden folder memlint writes notes into: retired copies, `.memlint/retired/<run-id>/…`. */
const RETIRED = '.memlint/retired/';

/** The deepest part of `abs` (inside `root`) that exists, resolved through its links; null when none. */
function realExisting(root: string, abs: string): string | null {
  let p = abs;
  for (;;) {
    try {
      return realpathSync(p);
    } catch {
      /* missing: try its folder */
    }
    const up = dirname(p);
    if (up === p || !isInside(root, up)) return null;
    p = up;
  }
}

/**
 * Why a vault-relative path may not be read or written, or null: not absolute, no `..`, `.` or empty
 * segment, no hidden folder (with `state`: only under `.memlint/retired/`), and neither it nor the
 * deepest folder of it that exists resolves out of the vault through a symbolic link.
 */
export function unsafePath(root: string, path: string, options: { state?: boolean } = {}): string | null {
  if (
    typeof path !== 'string' ||
    path === '' ||
    isAbsolute(path) ||
    /^[a-zA-Z]:[\\/]/.test(path) ||
    path.includes('\\') ||
    path.includes('\0')
  )
    return `${JSON.stringify(path)} is not a vault-relative path`;
  if (path.split('/').some((seg) => seg === '..' || seg === '.' || seg === ''))
    return `${JSON.stringify(path)} has a '..', '.' or empty segment`;
  const rest =
    options.state && (path.startsWith(RETIRED) || `${path}/` === RETIRED) ? path.slice(RETIRED.length) : path;
  if (rest.split('/').some((seg) => seg.startsWith('.')))
    return `${JSON.stringify(path)} is inside a hidden folder (such as .memlint)`;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return `the vault ${root} cannot be read`;
  }
  const abs = join(root, ...path.split('/'));
  const real = realExisting(root, abs);
  if (real !== null && !isInside(realRoot, real))
    return `${JSON.stringify(path)} goes through a symbolic link out of the vault`;
  try {
    const st = lstatSync(abs);
    if (!st.isFile() && !st.isSymbolicLink() && !st.isDirectory())
      return `${JSON.stringify(path)} is not a regular file`;
  } catch {
    /* missing: the staleness check reports it by name */
  }
  return null;
}

/**
 * `unsafePath` answers kept within one planning (the post-state gate plans many trials of one proposal while the
 * file system does not change): a path's answer is looked up, not asked of the file system again.
 */
export type PathMemo = Map<string, string | null>;

/** Why a path from a proposal is refused, or null when it is safe to touch. */
export function refusePath(vault: Vault, path: string, role: PathRole, memo?: PathMemo): string | null {
  let unsafe = memo?.get(path);
  if (unsafe === undefined) {
    count('apply.pathChecks');
    unsafe = unsafePath(vault.root, path);
    memo?.set(path, unsafe);
  }
  if (unsafe) return unsafe;
  const file = vault.byPath.get(path);
  if (role === 'note' && file && file.role !== 'note')
    return `${JSON.stringify(path)} is not a note (it is the ${file.role})`;
  if (role === 'note' && !file && !path.toLowerCase().endsWith('.md'))
    return `${JSON.stringify(path)} is not a markdown note`;
  if (role === 'index' && file && file.role !== 'index' && file.role !== 'secondary-index' && file.role !== 'note')
    return `${JSON.stringify(path)} cannot be edited as an index`;
  if (role === 'any-markdown' && !path.toLowerCase().endsWith('.md'))
    return `${JSON.stringify(path)} is not a markdown file`;
  return null;
}
