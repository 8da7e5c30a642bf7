/**
 * The vault's state folder, VAULT/.memlint, and every folder under it are written only when each one
 * that exists is a real folder (not a symbolic link) inside the vault: a vault is untrusted input, and
 * a `.memlint` that links elsewhere would make apply, undo, recover and every cache write there.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isInside } from './paths.js';
import { StateError, VaultError } from './errors.js';

export const STATE_DIR = '.memlint';

/** VAULT/.memlint/<sub…>, after checking the vault exists and no part of the chain is a link or leaves it. */
export function safeStateDir(root: string, ...sub: string[]): string {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    if (!lstatSync(realRoot).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new VaultError(`${root} is not a vault folder (it does not exist or cannot be read)`);
  }
  let p = root;
  for (const part of [STATE_DIR, ...sub]) {
    if (part === '' || part === '.' || part === '..' || part.includes('/') || part.includes(sep))
      throw new StateError(`refusing the state folder path ${join(STATE_DIR, ...sub)}`);
    p = join(p, part);
    let st;
    try {
      st = lstatSync(p);
    } catch {
      break;
    } // missing: made later as a real folder inside a checked one
    if (st.isSymbolicLink())
      throw new StateError(
        `refusing to use ${p}: it is a symbolic link (memlint's state folder must be a real folder inside the vault)`,
      );
    if (!st.isDirectory()) throw new StateError(`refusing to use ${p}: it is not a folder`);
    if (!isInside(realRoot, realpathSync(p))) throw new StateError(`refusing to use ${p}: it leaves the vault`);
  }
  return join(root, STATE_DIR, ...sub);
}

/** For a file path under some VAULT/.memlint/: the same check, by the path alone (caches). */
export function checkStatePath(file: string): void {
  const marker = `${sep}${STATE_DIR}${sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return;
  const sub = file
    .slice(at + marker.length)
    .split(sep)
    .slice(0, -1);
  safeStateDir(file.slice(0, at) || sep, ...sub);
}

/** A vault folder given on the command line: it must exist (no command creates a vault it was not given). */
export function existingVault(path: string): string {
  let ok = false;
  try {
    ok = lstatSync(realpathSync(path)).isDirectory();
  } catch {
    /* reported below */
  }
  if (!ok) throw new VaultError(`${path} is not a vault folder (it does not exist or is not a folder)`);
  return path;
}
