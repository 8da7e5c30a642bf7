import { describe, expect, it } from 'vitest';
import { harnessCut } from '../src/vault/index-file.js';

describe('the harness cut', () => {
  const budget = { maxLines: 200, maxBytes: 25_000 };
  const text = (sizes: number[]): string =>
    sizes.map((s, i) => String.fromCharCode(97 + (i % 26)).repeat(s - 1)).join('\n');

  it('loads everything under both limits', () => expect(harnessCut(text([10, 10]), budget).loadedLines).toBe(2));
  it('stops at 200 lines', () => expect(harnessCut(text(Array(201).fill(10)), budget).loadedLines).toBe(200));
  it('a line whose newline sits at 25,000 is loaded', () =>
    expect(harnessCut(text([12_500, 12_501, 5]), budget).loadedLines).toBe(2));
  it('a line whose newline sits at 25,001 is not', () =>
    expect(harnessCut(text([12_500, 12_502, 5]), budget).loadedLines).toBe(1));
  it('one huge first line loads none whole', () => expect(harnessCut(text([30_000]), budget).loadedLines).toBe(0));
});

describe('link path resolution', async () => {
  const { resolvePath, buildLookup } = await import('../src/vault/resolve.js');
  const lookup = buildLookup(
    [
      { path: 'a.md', stem: 'a', name: null },
      { path: 'sub/b.md', stem: 'b', name: null },
    ],
    ['a.md', 'sub/b.md'],
    [],
  );
  const cases: [string, string, string | null, string][] = [
    ['MEMORY.md', 'a.md', 'a.md', 'path'],
    ['MEMORY.md', './a.md', 'a.md', 'path'],
    ['MEMORY.md', 'sub/../a.md', 'a.md', 'path'],
    ['MEMORY.md', 'sub//b.md', 'sub/b.md', 'path'],
    ['sub/b.md', '../a.md', 'a.md', 'path'],
    ['sub/b.md', 'b.md', 'sub/b.md', 'path'],
    ['MEMORY.md', '../a.md', null, 'outside'],
    ['MEMORY.md', 'sub/../../a.md', null, 'outside'],
    ['MEMORY.md', 'a.md#why', 'a.md', 'path'],
    ['MEMORY.md', 'c.md', null, 'missing'],
  ];
  it.each(cases)('from %s, %s → %s (%s)', (from, target, resolved, resolution) => {
    const r = resolvePath(from, target, lookup, '/vault');
    expect([r.resolved, r.resolution]).toEqual([resolved, resolution]);
  });
});
