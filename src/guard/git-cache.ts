/**
 * Guard's git answers, VAULT/.memlint/cache/guard-git-v1.json: what `git log` said about a set of
 * matches, kept while nothing it read can have changed (util/git.ts `repoState`: the repository, HEAD
 * and its commit, shallow and config files). The hook's usual write (an edit of a note already
 * matched, or a new one like it) asks about the same notes again: without the cache each call spawned
 * git (~8 ms at any vault size). Outside any repository git is not run at all (it answers nothing).
 * Kept per set of paths, not per path: one `git log` over several paths may name another last commit
 * for one of them than a `git log` of it alone would (merges whose other side is pruned).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../util/cache-dir.js';
import { repoState } from '../util/git.js';
import { gitHistoryOrNull, type GitChange } from '../vault/history.js';
import { CACHE_KEY } from '../version.js';

export const GIT_CACHE_FILE = join('.memlint', 'cache', 'guard-git-v1.json');
const MAGIC = 'memlint-guard-git-1';
/** Path sets kept per repository state (the newest first). */
const KEEP = 32;

interface Stored {
  magic: string;
  version: string;
  state: string;
  /** [paths joined by NUL, [[path, date, commit, author], …]] */
  answers: [string, [string, string, string, string][]][];
}

function readStored(root: string, state: string): Stored['answers'] {
  try {
    const s = JSON.parse(readFileSync(join(root, GIT_CACHE_FILE), 'utf8')) as Partial<Stored>;
    if (s.magic !== MAGIC || s.version !== CACHE_KEY || s.state !== state || !Array.isArray(s.answers)) return [];
    return s.answers.filter(
      (a) =>
        Array.isArray(a) &&
        typeof a[0] === 'string' &&
        Array.isArray(a[1]) &&
        a[1].every((e) => Array.isArray(e) && e.length === 4 && e.every((x) => typeof x === 'string')),
    );
  } catch {
    return [];
  }
}

/** `gitHistory` for guard: from the cache while the repository is unchanged, none outside a repository. */
export function cachedGitHistory(
  mode: 'read-write' | 'read-only' | 'off',
): (root: string, paths: readonly string[]) => ReadonlyMap<string, GitChange> {
  return (root, paths) => {
    const state = repoState(root);
    if (state === 'none') return new Map();
    if (state === 'unknown' || mode === 'off') return gitHistoryOrNull(root, paths) ?? new Map();
    const key = [...new Set(paths)].sort().join('\0');
    const answers = readStored(root, state);
    const hit = answers.find((a) => a[0] === key);
    if (hit) return new Map(hit[1].map(([p, date, commit, author]) => [p, { date, commit, author }]));
    const got = gitHistoryOrNull(root, paths);
    if (got === null) return new Map(); // not kept: a timeout or a failure may not happen again
    if (mode === 'read-write') {
      const entry: Stored['answers'][number] = [key, [...got].map(([p, c]) => [p, c.date, c.commit, c.author])];
      const stored: Stored = {
        magic: MAGIC,
        version: CACHE_KEY,
        state,
        answers: [entry, ...answers.filter((a) => a[0] !== key)].slice(0, KEEP),
      };
      try {
        writeCacheFile(join(root, GIT_CACHE_FILE), JSON.stringify(stored));
      } catch {
        /* a read-only vault */
      }
    }
    return got;
  };
}
