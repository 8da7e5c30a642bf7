import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS_DIR } from '../src/guard/claims-cache.js';
import { copyToTemp, runBin, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');

/** Runs the built binary with a preload that records every package it requires (not Node's own modules). */
function packagesLoaded(args: string[], stdin: string): { packages: string[]; builtins: string[]; stdout: string } {
  const dir = tempDir();
  const preload = join(dir, 'record.cjs');
  const out = join(dir, 'loaded.json');
  writeFileSync(
    preload,
    `const M = require('node:module');
const load = M._load;
const seen = new Set();
M._load = function (request, ...rest) { if (!M.isBuiltin(request) && !request.startsWith('.') && !request.startsWith('/')) seen.add(request); return load.call(this, request, ...rest); };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ packages: [...seen], builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)) })));
`,
  );
  const r = runBin(args, { stdin, env: { NODE_OPTIONS: `--require ${preload}` } });
  expect(r.stderr).toBe('');
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { packages: string[]; builtins: string[] };
  return { ...loaded, stdout: r.stdout };
}

// zod took ~40% of a note write's start-up (BENCHMARKS.md, guard): rule option schemas are built only
// when a config sets options (src/util/lazy-zod.ts); the engine uses each rule's defaults otherwise.
describe('guard start-up: what a write loads', () => {
  const vault = copyToTemp(DEMO);
  const draft = readFileSync(join(DEMO, 'feedback_use-pnpm.md'), 'utf8');

  it('a note write loads no package (zod, the SDKs) when the vault has no config', () => {
    const { packages, stdout } = packagesLoaded(
      ['guard', vault, '--path', 'feedback_pnpm-again.md', '--format', 'json'],
      draft,
    );
    expect(JSON.parse(stdout).verdict).toBe('refuse');
    expect(packages).toEqual([]);
  });

  // node:crypto and node:v8 (which loads Node's streams) cost a note write ~30 and ~25 M instructions (BENCHMARKS.md,
  // "guard, session 16"): the claims cache names its entries with FNV, checks them by their bytes and writes them with
  // its own codec, and nothing else a warm note write does hashes or serializes.
  it('a warm note write that reads the notes it compares from the claims cache loads neither node:crypto nor node:v8', () => {
    const warm = copyToTemp(DEMO);
    // Folders changed within the racy-clean margin (2 s, by ctime, which no test can set back) are not trusted, so on
    // a loaded machine the second write would store the listings again (and load crypto for the temporary name): the
    // cache folder is made first (making it later changes the root folder) and the copy left to age past the margin.
    mkdirSync(join(warm, '.memlint', 'cache'), { recursive: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
    const args = ['guard', warm, '--path', 'feedback_pnpm-again.md', '--format', 'json'];
    const first = packagesLoaded(args, draft);
    expect(first.builtins).toContain('crypto'); // the first write stores the entries (temporary file names)
    const { builtins, stdout } = packagesLoaded(args, draft);
    expect(JSON.parse(stdout).verdict).toBe('refuse');
    expect(readdirSync(join(warm, CLAIMS_DIR)).some((n) => /^[0-9a-f]{40}$/.test(n))).toBe(true); // entries to read
    expect(builtins).not.toContain('crypto');
    expect(builtins).not.toContain('v8');
    expect(builtins).not.toContain('stream');
  });

  it('an index write loads no package either', () => {
    const index = readFileSync(join(vault, 'MEMORY.md'), 'utf8').split('\n');
    const drop = index.findIndex((l, i) => i > 2 && /\]\(/.test(l));
    const { packages } = packagesLoaded(
      ['guard', vault, '--path', 'MEMORY.md', '--format', 'json'],
      index.filter((_, i) => i !== drop).join('\n'),
    );
    expect(packages).toEqual([]);
  });

  it('a hook call with a good payload loads no package either (its payload is checked by hand: test/guard-hook-input.test.ts)', () => {
    const draft2 = draft.replace('name: use-pnpm', 'name: pnpm-again');
    const payload = {
      tool_name: 'Write',
      tool_input: { file_path: join(vault, 'feedback_pnpm-again.md'), content: draft2 },
    };
    const { packages, stdout } = packagesLoaded(['guard', '--claude-hook', vault], JSON.stringify(payload));
    expect(stdout).toMatch(/"permissionDecision":"deny"/);
    expect(packages).toEqual([]);
  });

  it('rule options a config sets are still validated (zod loaded then)', () => {
    const configured = copyToTemp(DEMO);
    writeFileSync(
      join(configured, 'memlint.config.json'),
      JSON.stringify({ rules: { 'memory/data-dump': { severity: 'info', options: { minChars: -5 } } } }),
    );
    const { packages, stdout } = packagesLoaded(
      ['guard', configured, '--path', 'feedback_new.md', '--format', 'json'],
      '---\nname: new\ndescription: a new note\ntype: project\n---\n\nThe release train leaves on Thursdays.\n',
    );
    expect(packages).toContain('zod');
    const problems = JSON.parse(stdout).problems as { message: string }[];
    expect(problems.map((p) => p.message).join('\n')).toMatch(/invalid options for memory\/data-dump/);
  });
});
