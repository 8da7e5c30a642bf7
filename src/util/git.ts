/** Running git. child_process is loaded on first use: guard imports callers of this and rarely runs git. */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): string {
  return process.getBuiltinModule('node:child_process').execFileSync('git', args, {
    cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: options.timeout ?? 30_000,
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** Running git for bytes (file contents from the object store), with optional stdin. */
export function runGitBytes(
  cwd: string,
  args: readonly string[],
  options: { input?: string; timeout?: number } = {},
): Buffer {
  return process.getBuiltinModule('node:child_process').execFileSync('git', args, {
    cwd,
    env: process.env,
    input: options.input ?? '',
    stdio: ['pipe', 'pipe', 'ignore'],
    timeout: options.timeout ?? 30_000,
    maxBuffer: 1024 * 1024 * 1024,
  });
}

/** GIT_* variables that cannot change what `git log` finds or says (transport, prompts, tracing, new commits' names). */
const HARMLESS_GIT_ENV =
  /^GIT_(?:SSL_\w+|SSH\w*|HTTP_\w+|CURL_\w+|PROXY_\w+|TRACE\w*|TERMINAL_PROMPT|ASKPASS|EDITOR|SEQUENCE_EDITOR|PAGER|AUTHOR_\w+|COMMITTER_\w+|LFS_\w+|PROTOCOL_FROM_USER|ALLOW_PROTOCOL|FLUSH|PROGRESS_DELAY|MERGE_VERBOSITY)$/;

/**
 * What `git log` run in `cwd` would read, as one string that changes whenever its answer could: the
 * repository found from `cwd` (as git finds it: the nearest `.git` folder or `gitdir:` file), HEAD and
 * the commit it names, the shallow file, and the config files (repository, worktree, global, system).
 * 'none': no folder from `cwd` up holds a `.git` or a `HEAD`, so git finds no repository (it answers
 * nothing). 'unknown': this cannot be told without running git (a GIT_* variable is set, a folder that
 * may itself be a git dir, grafts, replace refs, the reftable format, a ref it cannot read) — GIT_*
 * variables of transport, prompts and tracing aside.
 */
export function repoState(cwd: string, env: NodeJS.ProcessEnv = process.env): string | 'none' | 'unknown' {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  if (Object.keys(env).some((k) => k.startsWith('GIT_') && !HARMLESS_GIT_ENV.test(k))) return 'unknown';
  const read = (f: string): string | null => {
    try {
      return fs.readFileSync(f, 'utf8');
    } catch {
      return null;
    }
  };
  const exists = (f: string): boolean => fs.statSync(f, { throwIfNoEntry: false }) !== undefined;
  let start: string;
  try {
    start = fs.realpathSync(cwd);
  } catch {
    return 'unknown';
  }
  const gitDir = findGitDir(start, read);
  if (gitDir === 'none' || gitDir === 'unknown') return gitDir;
  const common = read(path.join(gitDir, 'commondir'));
  const commonDir = common === null ? gitDir : path.resolve(gitDir, common.trim());
  if (['info/grafts', 'refs/replace', 'reftable'].some((f) => exists(path.join(commonDir, f)))) return 'unknown';
  const head = read(path.join(gitDir, 'HEAD'))?.trim();
  if (!head) return 'unknown';
  let commit = head;
  if (head.startsWith('ref: ')) {
    const ref = head.slice(5).trim();
    const loose = read(path.join(commonDir, ref))?.trim();
    if (loose !== undefined) commit = loose;
    else {
      const packed = (read(path.join(commonDir, 'packed-refs')) ?? '')
        .split('\n')
        .find((l) => l.endsWith(` ${ref}`) && !l.startsWith('#'));
      commit = packed ? packed.split(' ')[0]! : 'unborn';
    }
    if (commit.startsWith('ref:')) return 'unknown';
  }
  const home = env.HOME ?? '';
  const configs = [
    path.join(commonDir, 'config'),
    path.join(gitDir, 'config.worktree'),
    path.join(commonDir, 'shallow'),
    path.join(home, '.gitconfig'),
    path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'git', 'config'),
    '/etc/gitconfig',
  ].map((f) => {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    return st ? [st.size, st.mtimeMs, st.ino] : null;
  });
  return JSON.stringify([start, gitDir, head, commit, configs]);
}

/** The git dir git would find from `start` (a real path) up: a `.git` folder, or the folder a `.git` file names. */
function findGitDir(start: string, read: (f: string) => string | null): string | 'none' | 'unknown' {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  let d = start;
  for (;;) {
    const dot = path.join(d, '.git');
    const st = fs.statSync(dot, { throwIfNoEntry: false });
    if (st?.isDirectory()) return dot;
    if (st) {
      const m = /^gitdir: (.+)$/m.exec(read(dot) ?? '');
      return m ? path.resolve(d, m[1]!.trim()) : 'unknown';
    }
    // A folder holding HEAD may be a git dir itself (git checks for HEAD, objects and refs).
    if (fs.statSync(path.join(d, 'HEAD'), { throwIfNoEntry: false })) return 'unknown';
    const up = path.dirname(d);
    if (up === d) return 'none';
    d = up;
  }
}
