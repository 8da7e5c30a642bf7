import { describe, expect, it } from 'vitest';
import { loadedLineCount } from '../src/vault/index-file.js';

describe('the harness cut', () => {
  const budget = { maxLines: 200, maxBytes: 25_000 };
  const ends = (sizes: number[]): number[] => sizes.reduce<number[]>((acc, s) => [...acc, (acc.at(-1) ?? 0) + s], []);

  it('loads everything under both limits', () => expect(loadedLineCount(ends([10, 10]), 20, budget)).toBe(2));
  it('stops at 200 lines', () => expect(loadedLineCount(ends(Array(201).fill(10)), 2010, budget)).toBe(200));
  it('a line ending exactly at 25,000 bytes is loaded', () => expect(loadedLineCount(ends([12_500, 12_500, 5]), 25_005, budget)).toBe(2));
  it('a line ending one byte past is not', () => expect(loadedLineCount(ends([12_500, 12_501, 5]), 25_006, budget)).toBe(1));
  it('one huge first line loads nothing', () => expect(loadedLineCount(ends([30_000]), 30_000, budget)).toBe(0));
});

describe('link path resolution', async () => {
  const { resolvePath, buildLookup } = await import('../src/vault/resolve.js');
  const lookup = buildLookup([{ path: 'a.md', stem: 'a', name: null }, { path: 'sub/b.md', stem: 'b', name: null }], ['a.md', 'sub/b.md'], []);
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
