import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyToTemp, runBin, runMain, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const CLEAN = join(process.cwd(), 'fixtures', 'note', 'orphan', 'reachable-through-notes', 'vault');
const json = (args: string[]) =>
  JSON.parse(runBin([...args, '--format', 'json']).stdout) as {
    summary: { errors: number; warnings: number };
    findings: { ruleId: string; severity: string }[];
  };

describe('check flags as markdownlint-cli2 and ESLint have them', () => {
  it('--quiet prints errors only; the summary still counts everything', () => {
    const all = json(['check', DEMO]);
    const quiet = json(['check', DEMO, '--quiet']);
    expect(all.findings.some((f) => f.severity !== 'error')).toBe(true);
    expect(quiet.findings.length).toBeGreaterThan(0);
    expect(quiet.findings.every((f) => f.severity === 'error')).toBe(true);
    expect(quiet.findings).toEqual(all.findings.filter((f) => f.severity === 'error'));
    expect(quiet.summary).toEqual(all.summary);
  });

  it('--rule runs only the named rules; --ignore-rule skips them (repeatable, comma lists)', () => {
    const only = json(['check', DEMO, '--rule', 'note/orphan', '--rule', 'index/dangling-link']);
    expect(new Set(only.findings.map((f) => f.ruleId))).toEqual(new Set(['note/orphan', 'index/dangling-link']));
    const skip = json(['check', DEMO, '--ignore-rule', 'note/orphan,index/dangling-link']);
    expect(skip.findings.some((f) => f.ruleId === 'note/orphan' || f.ruleId === 'index/dangling-link')).toBe(false);
    expect(skip.findings.length).toBeGreaterThan(0);
    const bad = runBin(['check', DEMO, '--rule', 'note/orphn']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "memlint: check: --rule note/orphn: no such rule (did you mean note/orphan?); 'memlint rules' lists them\n",
    );
  });

  it('--max-warnings N fails a run with more than N warnings', () => {
    const vault = copyToTemp(CLEAN);
    writeFileSync(join(vault, 'README.md'), 'no front matter, linked from nowhere\n');
    writeFileSync(join(vault, 'MEMORY.md'), `${readFileSync(join(vault, 'MEMORY.md'), 'utf8')}- [readme](README.md)\n`);
    const s = json(['check', vault]).summary;
    expect([s.errors, s.warnings]).toEqual([0, 1]);
    expect(runBin(['check', vault]).code).toBe(0);
    expect(runBin(['check', vault, '--max-warnings', '1']).code).toBe(0);
    const over = runBin(['check', vault, '--max-warnings', '0']);
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('memlint: 1 warnings, more than --max-warnings 0\n');
    expect(runBin(['check', vault, '--max-warnings', 'x']).code).toBe(2);
  });

  it("an unknown flag says --help (and what was probably meant), not parseArgs' text", async () => {
    const r = await runMain(['check', CLEAN, '--quite']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "memlint: check: unknown option '--quite' (did you mean --quiet?); run 'memlint check --help' for the options\n",
    );
  });

  it('the pretty report names an index over budget and the notes lost first, before anything else', () => {
    const out = runBin(['check', DEMO]).stdout.split('\n');
    expect(out[0]).toBe(
      '✖ MEMORY.md is over budget: 206 lines, 16071 UTF-16 units (limits 200 lines, 25000 UTF-16 units); only the first 200 lines load.',
    );
    expect(out[1]).toBe('  6 entries are never seen by the agent, from line 201; the notes lost first:');
    expect(out[2]).toBe('    deploy_checklist.md  (line 205)');
  });

  it('GitHub annotations carry paths from the repository root, wherever memlint runs', () => {
    const repo = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    cpSync(DEMO, join(repo, 'agent', 'memory'), { recursive: true });
    const r = runBin(['check', '.', '--format', 'github'], { cwd: join(repo, 'agent', 'memory') });
    expect(r.stdout).toMatch(/^::error file=agent\/memory\/MEMORY\.md,line=201,/m);
    expect(r.stdout).not.toMatch(/file=MEMORY\.md/);
  });
});

describe('config mistakes', () => {
  const withConfig = (cfg: unknown) => {
    const vault = copyToTemp(CLEAN);
    writeFileSync(join(vault, 'memlint.config.json'), JSON.stringify(cfg));
    return runBin(['check', vault]);
  };
  it('a rule id that does not exist is an error with a did-you-mean', () => {
    const r = withConfig({ rules: { 'note/missing-rational': 'off' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^memlint: invalid config .*: rules\.note\/missing-rational: no rule 'note\/missing-rational' \(did you mean 'note\/missing-rationale'\?\).*\n$/,
    );
  });
  it('an invalid severity lists the allowed values', () => {
    const r = withConfig({ rules: { 'note/orphan': 'warn' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /rules\.note\/orphan: must be one of "off", "error", "warning", "info" .*\(got "warn"\)\n$/,
    );
  });
});

describe('apply on a file that is not a proposal', () => {
  it.each([
    ['MEMORY.md', join(DEMO, 'MEMORY.md')],
    ['package.json', join(process.cwd(), 'package.json')],
  ])('%s: one line saying so', (_n, file) => {
    const r = runBin(['apply', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^memlint: .* is not a memlint proposal \(one is written by `memlint consolidate`: version: 1, vault, items\)(: not YAML .*)?\n$/,
    );
  });
});

describe('.memlint/ is kept out of git', () => {
  it('consolidate makes .memlint/.gitignore; git add -A commits no proposal unless config says so', () => {
    const repo = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    cpSync(DEMO, join(repo, 'memory'), { recursive: true });
    expect(runBin(['consolidate', 'memory'], { cwd: repo }).code).toBe(0);
    execFileSync('git', ['add', '-A'], { cwd: repo });
    const staged = execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: repo, encoding: 'utf8' });
    expect(staged).not.toMatch(/\.memlint/);
    expect(staged).toMatch(/memory\/MEMORY\.md/);
    writeFileSync(join(repo, 'memory', 'memlint.config.json'), JSON.stringify({ commitProposals: true }));
    expect(runBin(['consolidate', 'memory'], { cwd: repo }).code).toBe(0);
    execFileSync('git', ['add', '-A'], { cwd: repo });
    const now = execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: repo, encoding: 'utf8' });
    expect(now).toMatch(/memory\/\.memlint\/proposals\/.*\.yaml/);
  });
});
