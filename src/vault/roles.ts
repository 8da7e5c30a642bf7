/** What each markdown file of a vault is, and what kind of vault it is: one answer for every command. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Config } from '../config/schema.js';
import type { DiscoveredFile } from './discover.js';
import { hasSeparatorLine, hasSeparatorLineIn } from './hermes.js';
import type { FileRole, VaultKind } from './model.js';

export const HERMES_STORES: ReadonlySet<string> = new Set(['MEMORY.md', 'USER.md']);
const SECONDARY_INDEX = /^(MEMORY[-_.][^/]+|CURRENT)\.md$/i;

/**
 * Hermes when a top-level MEMORY.md / USER.md holds a `§` line, or the two stores are all there is. `sorted`: the
 * files are in discovery's order (by path, UTF-16 units), so the two stores are found by bisection, not by a pass over
 * 10,000 paths on every guard call.
 */
export function detectKind(
  files: readonly DiscoveredFile[],
  read: (f: DiscoveredFile) => string | Uint8Array = (f) => readFileSync(f.absPath, 'utf8'),
  sorted = false,
): VaultKind {
  const stores = sorted
    ? [...HERMES_STORES].flatMap((p) => {
        const f = files[bisect(files, p)];
        return f?.path === p ? [f] : [];
      })
    : files.filter((f) => HERMES_STORES.has(f.path));
  if (stores.length === 0) return 'claude';
  const separated = (f: DiscoveredFile): boolean => {
    const t = read(f);
    return typeof t === 'string' ? hasSeparatorLine(t) : hasSeparatorLineIn(t);
  };
  if (stores.some(separated)) return 'hermes';
  return stores.length === 2 && files.length === 2 ? 'hermes' : 'claude';
}

/** The first place in `files` (sorted by path) whose path is not below `path`. */
function bisect(files: readonly { readonly path: string }[], path: string): number {
  let lo = 0,
    hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (files[mid]!.path < path) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The role of a file by its path, or 'ignored' when config says it is not a note. */
export function roleClassifier(config: Config, kind: VaultKind): (path: string) => FileRole | 'ignored' {
  const secondary = new Set(config.secondaryIndexes);
  // picomatch is required only when there are patterns: most vaults have none, and guard starts faster.
  const isIgnored = config.ignore.length
    ? (createRequire(import.meta.url)('picomatch') as typeof import('picomatch'))(config.ignore, { dot: true })
    : () => false;
  return (path) => {
    if (kind === 'hermes' && (HERMES_STORES.has(path) || path in config.hermes.budgets)) return 'hermes-store';
    if (path === config.index.file) return 'index';
    if (path === config.catalog.file) return 'catalog';
    if (secondary.has(path) || SECONDARY_INDEX.test(path)) return 'secondary-index';
    return isIgnored(path) ? 'ignored' : 'note';
  };
}
