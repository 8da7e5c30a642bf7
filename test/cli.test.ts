import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { checkJson } from './contract.js';
import { runBin, runMain, tempDir, type RunResult } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const CLEAN = join(process.cwd(), 'fixtures', 'note', 'orphan', 'reachable-through-notes', 'vault');

interface Case {
  name: string;
  args: string[];
  code: number;
  stdout?: RegExp;
  stderr?: RegExp;
  /** Every case: no stack trace, ever. */
}

const CASES: Case[] = [
  { name: '--version', args: ['--version'], code: 0, stdout: new RegExp(`^${VERSION.replace(/\./g, '\\.')}\\n$`) },
  { name: '--help', args: ['--help'], code: 0, stdout: /Usage: memlint <command>/ },
  { name: 'no arguments prints help', args: [], code: 0, stdout: /Commands:/ },
  { name: 'check --help', args: ['check', '--help'], code: 0, stdout: /memlint check \[VAULT\]/ },
  { name: 'unknown command', args: ['frobnicate'], code: 2, stderr: /^memlint: unknown command 'frobnicate'.*\n$/ },
  {
    name: 'unknown flag',
    args: ['check', CLEAN, '--frob'],
    code: 2,
    stderr: /^memlint: check: unknown option '--frob'; run 'memlint check --help' for the options\n$/,
  },
  {
    name: 'bad format',
    args: ['check', CLEAN, '--format', 'xml'],
    code: 2,
    stderr: /--format must be one of pretty, json, sarif, github/,
  },
  {
    name: 'missing vault',
    args: ['check', '/nonexistent/vault'],
    code: 2,
    stderr: /^memlint: cannot read vault \/nonexistent\/vault: no such folder\n$/,
  },
  { name: 'vault is a file', args: ['check', join(DEMO, 'MEMORY.md')], code: 2, stderr: /is not a folder/ },
  { name: 'clean vault exits 0', args: ['check', CLEAN], code: 0, stdout: /✔ 0 errors, 0 warnings, 0 info in 3 notes/ },
  { name: 'demo vault exits 1', args: ['check', DEMO], code: 1, stdout: /index\/over-budget/ },
  {
    name: 'catalog --write with --check',
    args: ['catalog', CLEAN, '--write', '--check'],
    code: 2,
    stderr: /exclude each other/,
  },
  {
    name: 'catalog --check on a vault without one',
    args: ['catalog', CLEAN, '--check'],
    code: 1,
    stdout: /CATALOG.md is missing/,
  },
  { name: 'catalog prints', args: ['catalog', CLEAN], code: 0, stdout: /^# Memory catalog\n/ },
  { name: 'rules lists every rule', args: ['rules'], code: 0, stdout: /index\/over-budget\s+error/ },
  { name: 'hook without subcommand', args: ['hook'], code: 2, stderr: /the only subcommand is 'install'/ },
];

function expectCase(r: RunResult, c: Case): void {
  expect(r.code, `${c.name}: stderr=${r.stderr}`).toBe(c.code);
  if (c.stdout) expect(r.stdout).toMatch(c.stdout);
  if (c.stderr) expect(r.stderr).toMatch(c.stderr);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('CLI cases, in-process through main()', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => expectCase(await runMain(c.args), c));
});

describe('CLI cases, spawned dist binary', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_n, c) => expectCase(runBin(c.args), c));
});

describe('check --format json follows the contract', () => {
  it('on the demo vault', () => {
    const r = runBin(['check', DEMO, '--format', 'json']);
    expect(r.code).toBe(1);
    const json = checkJson.parse(JSON.parse(r.stdout));
    expect(json.vault).toBe(DEMO);
    expect(json.kind).toBe('claude');
    expect(json.index?.lines).toBe(206);
    expect(json.index?.loadedLines).toBe(200);
    expect(json.index?.lostEntries.map((e) => e.target)).toContain('deploy_checklist.md');
    expect(json.summary.errors).toBe(json.findings.filter((f) => f.severity === 'error').length);
    const ids = new Set(json.findings.map((f) => f.ruleId));
    for (const id of [
      'index/over-budget',
      'index/dangling-link',
      'note/orphan',
      'note/frontmatter-invalid',
      'note/frontmatter-schema',
      'note/duplicate-name',
      'note/broken-wikilink',
      'catalog/stale',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('findings are sorted by file, line, column, ruleId', () => {
    const json = checkJson.parse(JSON.parse(runBin(['check', DEMO, '--format', 'json']).stdout));
    const keys = json.findings.map((f) => [f.file, f.line, f.column, f.ruleId] as const);
    const sorted = [...keys].sort((a, b) =>
      a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0),
    );
    expect(keys).toEqual(sorted);
  });

  it('same vault, same bytes', () => {
    expect(runBin(['check', DEMO, '--format', 'json']).stdout).toBe(runBin(['check', DEMO, '--format', 'json']).stdout);
  });
});

describe('pretty output', () => {
  it('has no colour when not a TTY, and honours NO_COLOR', async () => {
    const r = await runMain(['check', DEMO]);
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });
  it('ends with one summary line', async () => {
    const r = await runMain(['check', DEMO]);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^✖ \d+ errors, \d+ warnings, \d+ info in 15 notes/);
  });
});

describe('github format', () => {
  it('prints one workflow command per finding, paths relative to cwd', () => {
    const r = runBin(['check', 'fixtures/demo-vault', '--format', 'github']);
    const lines = r.stdout.trim().split('\n');
    const json = JSON.parse(runBin(['check', DEMO, '--format', 'json']).stdout);
    expect(lines.filter((l) => l.startsWith('::')).length).toBe(json.findings.length);
    expect(lines).toContain(
      '::error file=fixtures/demo-vault/MEMORY.md,line=201,col=1,title=index/over-budget::' +
        json.findings.find((f: { ruleId: string }) => f.ruleId === 'index/over-budget').message,
    );
  });
  it('escapes newlines and commas in properties', () => {
    const r = runBin(['check', DEMO, '--format', 'github']);
    for (const l of r.stdout.split('\n').filter((x) => x.startsWith('::'))) expect(l).not.toMatch(/\r/);
  });
});

describe('config errors are one readable line, exit 2', () => {
  it('unknown key', () => {
    const dir = tempDir();
    const cfg = join(dir, 'memlint.config.json');
    writeFileSync(cfg, JSON.stringify({ indx: {} }));
    const r = runBin(['check', CLEAN, '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^memlint: invalid config .*memlint.config.json: \(top level\): Unrecognized key: "indx"\n$/,
    );
  });
  it('bad value', () => {
    const dir = tempDir();
    const cfg = join(dir, 'c.json');
    writeFileSync(cfg, JSON.stringify({ index: { maxLines: -3 } }));
    const r = runBin(['check', CLEAN, '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/index\.maxLines: Too small/);
  });
  it('not JSON', () => {
    const dir = tempDir();
    const cfg = join(dir, 'c.json');
    writeFileSync(cfg, '{ nope');
    const r = runBin(['check', CLEAN, '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not valid JSON/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('the committed JSON Schema is generated from the zod schema', () => {
    const schema = JSON.parse(readFileSync('schema/memlint.config.schema.json', 'utf8'));
    expect(schema.properties.index.properties.maxLines.default).toBe(200);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe("the binary's V8 code cache (dist/bin/load.cjs)", () => {
  const binDir = join(process.cwd(), 'dist', 'bin');
  const caches = (command: string): string[] =>
    readdirSync(binDir).filter((f) => f.endsWith('.v8cache') && f.includes(`.${command}.v`));

  it('is written per command, and a corrupt or truncated cache is rejected and written again', () => {
    const plain = runBin(['rules', '--format', 'json']);
    expect(plain.code).toBe(0);
    const [file] = caches('rules');
    expect(file).toBeDefined();
    // The name carries the bundle's sha1: a rebuilt bundle never meets an old cache.
    const bundleSha = createHash('sha1')
      .update(readFileSync(join(binDir, 'memlint.cjs')))
      .digest('hex');
    expect(file).toContain(bundleSha);
    for (const junk of [Buffer.from('not a code cache'), readFileSync(join(binDir, file!)).subarray(0, 100)]) {
      writeFileSync(join(binDir, file!), junk);
      const again = runBin(['rules', '--format', 'json']);
      expect(again.code).toBe(0);
      expect(again.stderr).toBe('');
      expect(again.stdout).toBe(plain.stdout);
      expect(readFileSync(join(binDir, file!)).length).toBeGreaterThan(1000);
    }
  });
});

describe('the package as installed', () => {
  it('the library resolves through package exports (ESM in dist/lib) beside the CommonJS bin', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('memlint'); console.log(typeof m.checkVault, typeof m.loadVault, m.VERSION)",
      ],
      { cwd: process.cwd(), encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`function function ${VERSION}`);
    expect(readFileSync(join(process.cwd(), 'dist', 'cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });
});
