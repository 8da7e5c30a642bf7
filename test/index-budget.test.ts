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
