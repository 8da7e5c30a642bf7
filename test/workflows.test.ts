import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../src/main.js';
import { CLI, tempDir } from './helpers/run.js';

interface PreCommitHook {
  id: string;
  entry: string;
  language: string;
  pass_filenames: boolean;
  files: string;
}
interface Step {
  name: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  if?: string;
}

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('.pre-commit-hooks.yaml', () => {
  const hooks = parse(readFileSync('.pre-commit-hooks.yaml', 'utf8')) as PreCommitHook[];

  it('declares hooks whose entries are memlint commands that run', () => {
    expect(hooks.map((h) => h.id)).toContain('memlint');
    const repo = tempDir();
    git(repo, 'init', '-q');
    cpSync(join('fixtures', 'note', 'orphan', 'reachable-through-notes', 'vault'), join(repo, 'memory'), {
      recursive: true,
    });
    git(repo, 'add', '.');
    for (const h of hooks) {
      expect(h.language).toBe('node');
      expect(h.pass_filenames).toBe(false);
      expect(new RegExp(h.files).test('memory/a.md')).toBe(true);
      const [bin, command, ...flags] = h.entry.split(' ');
      expect(bin).toBe('memlint');
      expect(Object.keys(COMMANDS)).toContain(command);
      // pre-commit appends the hook's args (the vault folder) to the entry
      const r = spawnSync(process.execPath, [CLI, command!, ...flags, 'memory'], { cwd: repo, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect([0, 1]).toContain(r.status);
    }
  });
});

describe('action.yml (composite GitHub Action)', () => {
  const action = parse(readFileSync('action.yml', 'utf8')) as {
    runs: { using: string; steps: Step[] };
    inputs: Record<string, { default: string }>;
  };

  it('is a composite action that uploads SARIF', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.some((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))).toBe(true);
  });

  it('its check step writes valid SARIF and annotations for a real vault, and records the exit code', () => {
    const step = action.runs.steps.find((s) => s.name === 'memlint check')!;
    const dir = tempDir();
    const out = join(dir, 'github-output');
    writeFileSync(out, '');
    const r = spawnSync('bash', ['-e', '-c', step.run!], {
      cwd: process.cwd(),
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        MEMLINT_VAULT: 'fixtures/demo-vault',
        MEMLINT_SARIF: join(dir, 'memlint.sarif'),
        MEMLINT_CLI: CLI,
        GITHUB_OUTPUT: out,
      },
    });
    expect(r.status).toBe(0);
    const sarif = JSON.parse(readFileSync(join(dir, 'memlint.sarif'), 'utf8')) as {
      version: string;
      runs: { results: unknown[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^::error file=fixtures\/demo-vault\//m);
    expect(readFileSync(out, 'utf8')).toBe('exit-code=1\n');
  });

  it('its consolidate step runs the consolidate command', () => {
    const step = action.runs.steps.find((s) => s.name === 'memlint consolidate')!;
    const dir = tempDir();
    const vault = join(dir, 'vault');
    cpSync('fixtures/demo-vault', vault, { recursive: true });
    const r = spawnSync('bash', ['-e', '-c', step.run!], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, MEMLINT_VAULT: vault, MEMLINT_PROPOSAL: join(dir, 'p.yaml'), MEMLINT_CLI: CLI },
    });
    expect(r.status).toBe(0);
    expect((parse(readFileSync(join(dir, 'p.yaml'), 'utf8')) as { version: number }).version).toBe(1);
  });
});
