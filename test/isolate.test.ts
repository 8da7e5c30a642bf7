/**
 * consolidate and report run on a worker thread (src/commands/isolate.ts): out of heap they end in one line and
 * exit 2, where the main thread would die with V8's fatal trace (hard 100k, session 18). Same output otherwise.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';
import { workerErrorText } from '../src/commands/isolate.js';
import { CLI, runBin, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
// A heap this small is reached while the vault is read; the main thread, which only dispatches, stays inside it.
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=8' };
const withoutTime = (json: string): unknown => {
  const p = JSON.parse(json) as { createdAt?: string };
  delete p.createdAt;
  return p;
};

describe('a command that runs out of heap', () => {
  const vault = join(tempDir(), 'vault');
  generateHardVault(vault, 200);

  it('consolidate ends in one line and exit 2, not a trace', () => {
    const r = runBin(['consolidate', vault, '--format', 'json'], { env: SMALL_HEAP });
    expect(r.stderr).toMatch(
      /^memlint: consolidate: out of memory: the run needed more than the [\d,]+ MB heap Node allows and was stopped; nothing was written\. .*--max-old-space-size=\d+ memlint consolidate …\n$/,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('run on the main thread instead (MEMLINT_ISOLATE=0), the same run dies with V8’s trace', () => {
    const r = runBin(['consolidate', vault, '--format', 'json'], { env: { ...SMALL_HEAP, MEMLINT_ISOLATE: '0' } });
    expect(r.code).not.toBe(2);
    expect(r.stderr).toContain('heap out of memory');
    expect(r.stderr.split('\n').length).toBeGreaterThan(5);
  });
});

describe('on a worker or not, the same output and exit codes', () => {
  it('consolidate --format json on the demo vault', () => {
    const a = runBin(['consolidate', DEMO, '--format', 'json']);
    const b = runBin(['consolidate', DEMO, '--format', 'json'], { env: { MEMLINT_ISOLATE: '0' } });
    expect(a.code).toBe(b.code);
    expect(a.stderr).toBe(b.stderr);
    expect(withoutTime(a.stdout)).toEqual(withoutTime(b.stdout));
  });

  it('report --html on the demo vault', () => {
    const dir = tempDir();
    const a = runBin(['report', DEMO, '--html', join(dir, 'a.html')]);
    const b = runBin(['report', DEMO, '--html', join(dir, 'b.html')], { env: { MEMLINT_ISOLATE: '0' } });
    expect(a.code).toBe(b.code);
    expect(a.code).toBe(0);
    const strip = (f: string): string =>
      readFileSync(join(dir, f), 'utf8').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'T');
    expect(strip('a.html')).toBe(strip('b.html'));
  });

  it('a usage error and a missing vault: one line, exit 2, from the worker too', () => {
    for (const args of [
      ['consolidate', '--format', 'xml'],
      ['consolidate', join(tempDir(), 'missing')],
    ]) {
      const a = runBin(args);
      const b = runBin(args, { env: { MEMLINT_ISOLATE: '0' } });
      expect(a.code).toBe(2);
      expect(a.stderr).toBe(b.stderr);
      expect(a.stderr.split('\n')).toHaveLength(2);
    }
  });
});

describe('MEMLINT_TIMING on a worker', () => {
  it('each phase line is written when the phase ends, not when the worker ends', () => {
    // stdout and stderr on one file: a line written at once lands before the proposal; one queued on the worker's
    // `process.stderr` stream would land after it (the stream is flushed when the worker's event loop turns).
    const file = join(tempDir(), 'both.txt');
    const fd = openSync(file, 'w');
    spawnSync(process.execPath, [CLI, 'consolidate', DEMO, '--format', 'json', '--out', '-'], {
      stdio: ['ignore', fd, fd],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MEMLINT_TIMING: '1' },
    });
    closeSync(fd);
    const both = readFileSync(file, 'utf8');
    const phase = both.indexOf('memlint timing: read+parse');
    expect(phase).toBeGreaterThanOrEqual(0);
    expect(phase).toBeLessThan(both.indexOf('"manifest"'));
  });
});

describe('what the main thread prints when its worker ends in an error', () => {
  it('out of heap: the one line, naming the command', () => {
    const e = Object.assign(new Error('Worker terminated due to reaching memory limit'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(workerErrorText(e, 'report', ['report', 'v', '--html', 'x'])).toMatch(
      /^memlint: report: out of memory: [^\n]*memlint report …\n$/,
    );
  });

  it('anything else: one line however many the message has, the stack only with --debug', () => {
    const e = new Error("Cannot find module 'zod'\nRequire stack:\n- /x/memlint.cjs");
    expect(workerErrorText(e, 'consolidate', ['consolidate'])).toBe(
      "memlint: internal error: Cannot find module 'zod' (run again with --debug for the stack trace)\n",
    );
    const debug = workerErrorText(e, 'consolidate', ['consolidate', '--debug']);
    expect(debug.startsWith("memlint: internal error: Cannot find module 'zod'\n")).toBe(true);
    expect(debug).toContain(e.stack!);
  });
});
