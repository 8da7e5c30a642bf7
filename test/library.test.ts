import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyToTemp, runBin, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');

/** Runs an ES module or CommonJS script from the repository root, where `memlint` resolves to this package (dist/). */
function node(code: string, type: 'module' | 'commonjs' = 'module'): unknown {
  const r = spawnSync(process.execPath, ['--input-type', type, '-e', code], { cwd: process.cwd(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe("import('memlint'): the JSON the CLI prints", () => {
  it('check() equals check --format json, with index.lostEntries', () => {
    const lib = node(
      `const m = await import('memlint'); console.log(JSON.stringify(await m.check(${JSON.stringify(DEMO)})));`,
    ) as { index: { lostEntries: unknown[] } };
    const cli = JSON.parse(runBin(['check', DEMO, '--format', 'json']).stdout) as unknown;
    expect(lib).toEqual(cli);
    expect(lib.index.lostEntries).toHaveLength(6);
  });

  it('guard() equals guard --format json', () => {
    const draft = readFileSync(join(DEMO, 'feedback_use-pnpm.md'), 'utf8').replace(
      'name: use-pnpm',
      'name: pnpm-again',
    );
    const vault = copyToTemp(DEMO);
    const lib = node(
      `const m = await import('memlint'); console.log(JSON.stringify(await m.guard(${JSON.stringify(vault)}, ${JSON.stringify(draft)}, { path: 'feedback_pnpm-again.md' })));`,
    ) as { verdict: string };
    const cli = JSON.parse(
      runBin(['guard', vault, '--format', 'json', '--path', 'feedback_pnpm-again.md'], { stdin: draft }).stdout,
    ) as unknown;
    expect(lib.verdict).toBe('refuse');
    expect(lib).toEqual(cli);
  });

  it('consolidate() returns the proposal consolidate --format json prints, and writes nothing; planApply() plans without writing', () => {
    const vault = copyToTemp(DEMO);
    const listing = (): string[] => readdirSync(vault, { recursive: true }).map(String).sort();
    const before = listing();
    const out = node(`const m = await import('memlint');
      const p = await m.consolidate(${JSON.stringify(vault)}, { now: new Date('2026-11-30T12:00:00Z') });
      for (const i of p.items) i.decision = 'approve';
      const plan = await m.planApply(p);
      console.log(JSON.stringify({ p, plan }));`) as {
      p: { items: { id: string; kind: string }[]; version: number };
      plan: { items: { id: string; status: string }[]; changes: { path: string; before: string | null }[] };
    };
    const cli = JSON.parse(runBin(['consolidate', vault, '--format', 'json']).stdout) as {
      items: { id: string; kind: string }[];
    };
    expect(out.p.version).toBe(1);
    expect(out.p.items.map((i) => [i.id, i.kind])).toEqual(cli.items.map((i) => [i.id, i.kind]));
    expect(out.plan.items.map((i) => i.id)).toEqual(out.p.items.map((i) => i.id));
    expect(out.plan.changes.length).toBeGreaterThan(0);
    expect(listing()).toEqual(before);
  });

  it("require('memlint') (CommonJS) gives the same functions", () => {
    const r = node(
      `const m = require('memlint'); m.check(${JSON.stringify(DEMO)}).then((j) => console.log(JSON.stringify({ keys: Object.keys(m), errors: j.summary.errors })));`,
      'commonjs',
    );
    expect(r).toEqual({ keys: ['check', 'consolidate', 'planApply', 'guard'], errors: 11 });
  });

  it('planApply() on a file that is not a proposal says so', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type',
        'module',
        '-e',
        `const m = await import('memlint'); try { await m.planApply(${JSON.stringify(join(DEMO, 'MEMORY.md'))}); } catch (e) { console.log(e.message); }`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toMatch(/is not a memlint proposal/);
  });
});

describe('packaging', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    engines: Record<string, string>;
    scripts: Record<string, string>;
  };

  it('remark-parse and unified are test-only (devDependencies): nothing in src imports them', () => {
    for (const name of ['remark-parse', 'unified']) {
      expect(pkg.dependencies[name]).toBeUndefined();
      expect(pkg.devDependencies[name]).toBeDefined();
    }
    const r = spawnSync('git', ['grep', '-l', '-E', "from '(remark-parse|unified)'", '--', 'src'], {
      encoding: 'utf8',
    });
    expect([r.status, r.stdout]).toEqual([1, '']); // git grep: 1 = no match
  });

  it('the model SDKs are loaded only by review --judge (a dynamic import in review/judge.ts)', () => {
    const hits = execFileSync(
      'git',
      ['grep', '-n', '-E', "(import\\(|from |require\\()'(@anthropic-ai/sdk|openai)'", '--', 'src'],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    expect(hits).toHaveLength(2);
    for (const h of hits)
      expect(h).toMatch(/^src\/review\/judge\.ts:\d+:.*await import\('(@anthropic-ai\/sdk|openai)'\)/);
  });

  it('package-lock.json agrees with package.json (npm install has nothing to rewrite)', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<
        string,
        {
          dependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
          engines?: Record<string, string>;
        }
      >;
    };
    const root = lock.packages['']!;
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
    expect(root.engines).toEqual(pkg.engines);
  });

  it('the packed package.json has no prepare script, and postpack puts it back unchanged', () => {
    const dir = tempDir();
    const original = readFileSync('package.json', 'utf8');
    writeFileSync(join(dir, 'package.json'), original);
    const script = join(process.cwd(), 'scripts', 'pack-scripts.mjs');
    execFileSync(process.execPath, [script, 'disable'], { cwd: dir });
    const packed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(packed.scripts.prepare).toBeUndefined();
    execFileSync(process.execPath, [script, 'enable'], { cwd: dir });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(pkg.scripts.prepack).toMatch(/pack-scripts\.mjs disable/);
    expect(pkg.scripts.postpack).toMatch(/pack-scripts\.mjs enable/);
  });

  it('no trace log is committed', () => {
    expect(execFileSync('git', ['ls-files', '*.log'], { encoding: 'utf8' })).toBe('');
  });
});
