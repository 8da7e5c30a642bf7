/**
 * Issue 16: the Claude Code hook never blocks or hangs the agent (one stderr line and the tool runs),
 * decides on normalized, resolved paths, and guard asks git once per run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const TOKEN = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const NOTE = `---\nname: deploy-token\ndescription: the deploy token\ntype: reference\n---\nToken ${TOKEN} for deploys.\n`;

// The hook guards Claude Code's memory folders: each vault is a project's auto memory under one fake HOME.
const HOME = tempDir();
let projects = 0;

function world(): { base: string; vault: string } {
  const base = join(HOME, '.claude', 'projects', `-work-project-${++projects}`);
  const vault = join(base, 'memory');
  cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
  return { base, vault };
}

/** The built hook as Claude Code runs it, with a deadline: a hang is a failure, not a stuck suite. */
function hook(
  payload: unknown,
  args: string[] = [],
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string; ms: number } {
  const t = Date.now();
  const r = spawnSync(process.execPath, [CLI, 'guard', '--claude-hook', ...args], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, HOME, ...env },
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: Date.now() - t };
}

const failOpen = (r: ReturnType<typeof hook>): void => {
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^memlint guard --claude-hook: .*not checked$/m);
};

describe('the hook fails open', () => {
  it('on a folder named dir.md', () => {
    const { vault } = world();
    mkdirSync(join(vault, 'dir.md'));
    failOpen(
      hook({ tool_name: 'Edit', tool_input: { file_path: join(vault, 'dir.md'), old_string: 'a', new_string: 'b' } }),
    );
  });

  it('on an invalid memlint.config.json in the vault', () => {
    const { vault } = world();
    writeFileSync(join(vault, 'memlint.config.json'), '{ "guard": { "refuse": "high" } ');
    failOpen(hook({ tool_name: 'Write', tool_input: { file_path: join(vault, 'new_note.md'), content: NOTE } }));
  });

  it('on an Edit of a FIFO, without hanging', () => {
    const { vault } = world();
    execFileSync('mkfifo', [join(vault, 'pipe.md')]);
    const r = hook({
      tool_name: 'Edit',
      tool_input: { file_path: join(vault, 'pipe.md'), old_string: 'a', new_string: 'b' },
    });
    failOpen(r);
  });

  it('on an Edit of a link to /dev/zero (a link out of the vault is never followed)', () => {
    const { vault } = world();
    symlinkSync('/dev/zero', join(vault, 'zero.md'));
    failOpen(
      hook({ tool_name: 'Edit', tool_input: { file_path: join(vault, 'zero.md'), old_string: 'a', new_string: 'b' } }),
    );
  });

  it('on a MultiEdit of 40 replace_all edits that would double the note each time: bounded, fast', () => {
    const { vault } = world();
    const target = join(vault, 'user_role.md');
    writeFileSync(target, `---\nname: r\ndescription: d\ntype: user\n---\n${'a'.repeat(1000)}\n`);
    const r = hook({
      tool_name: 'MultiEdit',
      tool_input: {
        file_path: target,
        edits: Array.from({ length: 40 }, () => ({ old_string: 'a', new_string: 'aa', replace_all: true })),
      },
    });
    failOpen(r);
    expect(r.ms).toBeLessThan(20_000);
  });
});

describe('the hook decides on resolved paths', () => {
  it('memory/../outside/../memory/x.md is a note of the named vault', () => {
    const { base, vault } = world();
    mkdirSync(join(base, 'outside'));
    const r = hook(
      { tool_name: 'Write', tool_input: { file_path: `${join(base, 'outside')}/../memory/x.md`, content: NOTE } },
      [vault],
    );
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('a vault named through a symbolic link', () => {
    const { base, vault } = world();
    symlinkSync(vault, join(base, 'link'));
    const r = hook({ tool_name: 'Write', tool_input: { file_path: join(vault, 'x.md'), content: NOTE } }, [
      join(base, 'link'),
    ]);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('a note five folders deep (no vault named)', () => {
    const { vault } = world();
    const deep = join(vault, 'a', 'b', 'c', 'd', 'e');
    mkdirSync(deep, { recursive: true });
    const r = hook({ tool_name: 'Write', tool_input: { file_path: join(deep, 'x.md'), content: NOTE } });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('guard asks git once per run', () => {
  it('however many notes match', () => {
    const base = tempDir();
    const vault = join(base, 'memory');
    mkdirSync(vault);
    const body =
      'Always use pnpm for installs in this repository; never npm or yarn, the lockfile is pnpm-lock.yaml and CI fails otherwise.';
    writeFileSync(join(vault, 'MEMORY.md'), '# Memory\n');
    for (let i = 0; i < 8; i++)
      writeFileSync(
        join(vault, `pnpm_${i}.md`),
        `---\nname: pnpm-${i}\ndescription: pnpm ${i}\ntype: feedback\n---\n${body} (${i})\n`,
      );
    const g = (...a: string[]): string =>
      execFileSync('git', a, {
        cwd: vault,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    g('init', '-q');
    g('add', '.');
    g('commit', '-qm', 'notes');
    // A `git` first on PATH that logs each call, then runs the real one.
    const bin = join(base, 'bin');
    mkdirSync(bin);
    const log = join(base, 'git.log');
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\necho "$1" >> ${log}\nexec ${execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()} "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    writeFileSync(log, '');
    const draft = join(base, 'draft.md');
    writeFileSync(draft, `---\nname: pnpm-new\ndescription: pnpm\ntype: feedback\n---\n${body}\n`);
    const r = spawnSync(process.execPath, [CLI, 'guard', vault, '--file', draft, '--format', 'json'], {
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME },
    });
    expect(JSON.parse(r.stdout).matches.length).toBeGreaterThanOrEqual(8);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l === 'log');
    expect(calls).toHaveLength(1);
  });
});
