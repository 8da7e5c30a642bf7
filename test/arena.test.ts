// check reads files' bytes into a few shared buffers (src/util/arena.ts) and its worker reads them there without a
// copy (src/rules/parallel.ts): the views never overlap, and on a large vault no note's bytes are copied for the worker.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARENA_CHUNK, byteArena } from '../src/util/arena.js';
import { CLI } from './helpers/run.js';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';

const root = mkdtempSync(join(tmpdir(), 'memlint-arena-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('byteArena', () => {
  it('hands out shared views that never overlap, and a buffer of its own past a quarter chunk', () => {
    const alloc = byteArena(1024);
    const views = [100, 200, 0, 256, 250, 1, 255, 256, 17].map((n, i) => {
      const v = alloc(n);
      v.fill(i + 1);
      return v;
    });
    views.forEach((v, i) => {
      expect(Buffer.isBuffer(v)).toBe(true);
      expect(v.buffer instanceof SharedArrayBuffer).toBe(true);
      // Written after every view was made: a view overlapping a later one would hold its bytes.
      expect([...v].every((b) => b === i + 1)).toBe(true);
    });
    const big = alloc(257);
    expect(big.buffer instanceof SharedArrayBuffer).toBe(false);
    expect(big.length).toBe(257);
  });
});

describe('check with its worker', () => {
  it('posts a large vault to the worker without copying the bytes of its notes', () => {
    const dir = join(root, 'hard');
    (generateHardVault as (d: string, n: number) => void)(dir, 1000);
    const r = spawnSync(process.execPath, [CLI, 'check', dir, '--format', 'json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MEMLINT_WORKERS: '1', MEMLINT_COUNTERS: '1' },
    });
    const counter = (name: string): number =>
      Number(new RegExp(`memlint counter: ${name} (\\d+)`).exec(r.stderr)?.[1] ?? 0);
    expect(counter('parallel.sharedFiles')).toBeGreaterThan(900);
    // Only the index (827 KB, over a quarter of a chunk: a buffer of its own) is copied.
    const big = statSync(join(dir, 'MEMORY.md')).size;
    expect(big).toBeGreaterThan(ARENA_CHUNK / 4);
    expect(counter('parallel.copiedBytes')).toBe(big);
  });
});
