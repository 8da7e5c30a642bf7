/** A proposal is a file a person edits: every path in it is checked before anything is planned. */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { isInside } from '../vault/discover.js';
import type { Vault } from '../vault/model.js';

export type PathRole = 'note' | 'index' | 'any-markdown';

/** Why a path is refused, or null when it is safe to touch. */
export function refusePath(vault: Vault, path: string, role: PathRole): string | null {
  if (path === '' || isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path) || path.includes('\\')) return `${JSON.stringify(path)} is not a vault-relative path`;
  if (path.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')) return `${JSON.stringify(path)} has a '..', '.' or empty segment`;
  if (path.split('/').some((seg) => seg.startsWith('.'))) return `${JSON.stringify(path)} is inside a hidden folder (such as .memlint)`;
  const abs = join(vault.root, ...path.split('/'));
  try {
    const real = realpathSync(abs);
    if (!isInside(realpathSync(vault.root), real)) return `${JSON.stringify(path)} goes through a symbolic link out of the vault`;
  } catch {
    // A file that does not exist: the staleness check reports it by name.
  }
  if (path.split('/').slice(0, -1).length) {
    try {
      const parentReal = realpathSync(join(vault.root, ...path.split('/').slice(0, -1)));
      if (!isInside(realpathSync(vault.root), parentReal + sep)) return `${JSON.stringify(path)} goes through a symbolic link out of the vault`;
    } catch { /* a missing folder: nothing to escape through */ }
  }
  const file = vault.byPath.get(path);
  if (role === 'note' && file && file.role !== 'note') return `${JSON.stringify(path)} is not a note (it is the ${file.role})`;
  if (role === 'note' && !file && !path.toLowerCase().endsWith('.md')) return `${JSON.stringify(path)} is not a markdown note`;
  if (role === 'index' && file && file.role !== 'index' && file.role !== 'secondary-index' && file.role !== 'note') return `${JSON.stringify(path)} cannot be edited as an index`;
  if (role === 'any-markdown' && !path.toLowerCase().endsWith('.md')) return `${JSON.stringify(path)} is not a markdown file`;
  return null;
}
