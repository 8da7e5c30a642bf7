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
