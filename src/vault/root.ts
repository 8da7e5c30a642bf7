/** The project root that reference checks run against. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface RootChoice {
  readonly root: string | null;
  readonly source: 'flag' | 'config' | 'decoded' | 'none';
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Claude Code keeps memory at ~/.claude/projects/<encoded>/memory, where <encoded> is the project
 * path with every "/" (and ".") turned into "-". A "-" inside a folder name is ambiguous, so the
 * path is rebuilt by walking the real file system one folder at a time.
 */
export function decodeProjectPath(encoded: string): string | null {
  if (!encoded.startsWith('-')) return null;
  const parts = encoded.slice(1).split('-');
  const walk = (dir: string, i: number): string | null => {
    if (i === parts.length) return dir;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return null;
    }
    for (let j = parts.length; j > i; j--) {
      const joined = parts.slice(i, j).join('-');
      for (const candidate of [joined, joined.replace(/^-/, '.'), `.${joined}`]) {
        if (names.includes(candidate) && isDir(join(dir, candidate))) {
          const found = walk(join(dir, candidate), j);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return walk('/', 0);
}

export function chooseRoot(vaultRoot: string, flag: string | undefined, configured: string | undefined): RootChoice {
  if (flag) return { root: resolve(flag), source: 'flag' };
  if (configured) return { root: resolve(vaultRoot, configured), source: 'config' };
  if (
    basename(vaultRoot) === 'memory' &&
    basename(dirname(dirname(vaultRoot))) === 'projects' &&
    basename(dirname(dirname(dirname(vaultRoot)))) === '.claude'
  ) {
    const decoded = decodeProjectPath(basename(dirname(vaultRoot)));
    if (decoded && existsSync(decoded)) return { root: decoded, source: 'decoded' };
  }
  return { root: null, source: 'none' };
}
