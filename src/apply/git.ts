/**
 * Snapshot commits of the vault under refs/memlint/runs/<run-id>/{pre,post}, made with a temporary
 * index: branches, HEAD, the real index and the stash are never touched, and nothing is cleaned.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../util/git.js';

const git = (cwd: string, args: string[], env?: NodeJS.ProcessEnv): string =>
  runGit(cwd, args, env ? { env } : {}).trim();

export function inGitWorkTree(dir: string): boolean {
  try {
    return git(dir, ['rev-parse', '--is-inside-work-tree']) === 'true';
  } catch {
    return false;
  }
}

/**
 * Records the files the run touches as they are now, on top of HEAD's tree; returns the commit id, or
 * null when it could not be made. Only those files: a git-ignored `.env` beside the notes (or any
 * other file the run does not touch) never enters a snapshot.
 */
export function snapshot(
  vaultRoot: string,
  runDir: string,
  runId: string,
  label: 'pre' | 'post',
  paths: readonly string[],
): string | null {
  const index = join(runDir, `git-index-${label}`);
  const env = {
    ...process.env,
    GIT_INDEX_FILE: index,
    GIT_AUTHOR_NAME: 'memlint',
    GIT_AUTHOR_EMAIL: 'memlint@localhost',
    GIT_COMMITTER_NAME: 'memlint',
    GIT_COMMITTER_EMAIL: 'memlint@localhost',
  };
  try {
    try {
      git(vaultRoot, ['read-tree', 'HEAD'], env);
    } catch {
      /* no commit yet: start from an empty tree */
    }
    const touched = paths.filter((p) => !p.startsWith('.memlint/'));
    // update-index takes each path literally (no pathspec magic), adds it if it exists, drops it if not.
    for (let i = 0; i < touched.length; i += 500)
      git(vaultRoot, ['update-index', '--add', '--remove', '--', ...touched.slice(i, i + 500)], env);
    const tree = git(vaultRoot, ['write-tree'], env);
    const commit = git(vaultRoot, ['commit-tree', tree, '-m', `memlint run ${runId} (${label})`], env);
    git(vaultRoot, ['update-ref', `refs/memlint/runs/${runId}/${label}`, commit]);
    return commit;
  } catch {
    return null;
  } finally {
    rmSync(index, { force: true });
  }
}
