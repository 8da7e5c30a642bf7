/** When and by whom each note last changed: front matter first, then git (one `git log`), then mtime. */

import { runGit } from '../util/git.js';

const git = (root: string, args: readonly string[], timeout: number): string => runGit(root, args, { timeout });

export interface GitChange {
  readonly date: string;
  readonly commit: string;
  readonly author: string;
}

/** Last commit touching each file under `root`, keyed by vault-relative path. Empty outside git. */
export function gitHistory(root: string, paths?: readonly string[]): ReadonlyMap<string, GitChange> {
  return gitHistoryOrNull(root, paths) ?? new Map<string, GitChange>();
}

/** As gitHistory, but null when git failed (no repository, a timeout): an answer to keep only when it is not null. */
export function gitHistoryOrNull(root: string, paths?: readonly string[]): Map<string, GitChange> | null {
  const out = new Map<string, GitChange>();
  if (paths && paths.length === 0) return out;
  // `paths`: only these files (taken literally, no pathspec magic), still one `git log` for all.
  const spec = paths ? paths.map((p) => `:(literal)${p}`) : ['.'];
  let log: string;
  try {
    log = git(root, ['log', '--relative', '--name-only', '--format=%x00%H%x09%an%x09%aI', '--', ...spec], 10_000);
  } catch {
    return null;
  }
  for (const block of log.split('\0')) {
    const [head, ...files] = block.split('\n');
    if (!head) continue;
    const [commit, author, date] = head.split('\t');
    if (!commit || !date) continue;
    for (const f of files) {
      const path = f.trim();
      if (path && !out.has(path)) out.set(path, { date, commit: commit.slice(0, 12), author: author ?? '' });
    }
  }
  return out;
}

export interface Provenance {
  readonly modified: string | null;
  readonly origin: string;
  readonly ageDays: number | null;
  readonly ageSource: 'frontmatter' | 'git' | 'mtime';
}

/**
 * For guard's matches: the last commit of each of `paths()`, asked of git once, on the first call
 * (a match whose front matter lacks a date or origin), never once per note.
 */
export function lazyGitChanges(
  root: string,
  paths: () => readonly string[],
  history: (root: string, paths: readonly string[]) => ReadonlyMap<string, GitChange> = gitHistory,
): (path: string) => GitChange | null {
  let all: ReadonlyMap<string, GitChange> | null = null;
  return (path) => (all ??= history(root, paths())).get(path) ?? null;
}

export interface ProvenanceSource {
  readonly path: string;
  readonly mtimeMs: number;
  readonly meta: { readonly modified: string | null; readonly origin: string | null };
}

/** Age and origin: front matter first, then git (asked only when the front matter lacks either), then mtime. */
export function provenance(
  note: ProvenanceSource,
  gitOf: (path: string) => GitChange | null | undefined,
  now: number,
): Provenance {
  const fromMeta = note.meta.modified ? Date.parse(note.meta.modified) : NaN;
  const git = Number.isNaN(fromMeta) || !note.meta.origin ? gitOf(note.path) : null;
  const origin = note.meta.origin ?? (git ? `git ${git.commit} by ${git.author}` : 'unknown');
  if (!Number.isNaN(fromMeta))
    return { modified: note.meta.modified, origin, ageDays: days(now - fromMeta), ageSource: 'frontmatter' };
  if (git) return { modified: git.date, origin, ageDays: days(now - Date.parse(git.date)), ageSource: 'git' };
  return {
    modified: new Date(note.mtimeMs).toISOString(),
    origin,
    ageDays: days(now - note.mtimeMs),
    ageSource: 'mtime',
  };
}

const days = (ms: number): number => Math.max(0, Math.floor(ms / 86_400_000));
