import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const CLI = join(process.cwd(), 'dist', 'cli.js');

/** Runs the CLI in-process through main(). */
export async function runMain(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv: args,
    cwd: opts.cwd ?? process.cwd(),
    env: { ...opts.env },
    stdout: {
      write: (s: string) => {
        stdout += s;
        return true;
      },
    },
    stderr: {
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
    readStdin: async () => opts.stdin ?? '',
    stdinIsTTY: false,
  });
  return { code, stdout, stderr };
}

/** Runs the built binary as a user would. */
export function runBin(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string } = {},
): RunResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    input: opts.stdin ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A private copy of a folder, for anything that may write. */
export function copyToTemp(src: string, label = 'vault'): string {
  const dir = mkdtempSync(join(tmpdir(), 'memlint-'));
  const dest = join(dir, label);
  cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
  return dest;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'memlint-'));
}
