/**
 * detectKind on discovery's sorted list finds the two Hermes stores by bisection: the same kind as the pass over every
 * path, for any sorted list (names that sort right beside the stores included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectKind } from '../src/vault/roles.js';
import { propertyRuns } from './helpers/ci.js';

const POOL = [
  'MEMORY.md',
  'USER.md',
  'MEMORY-old.md',
  'MEMORY.md.md',
  'MEMORYX.md',
  'MEMORY/MEMORY.md',
  'USER.mdx.md',
  'USER-notes.md',
  'a/USER.md',
  'a/MEMORY.md',
  'Memory.md',
  'note.md',
  'zz.md',
  '0.md',
  'ü.md',
];

describe('detectKind', () => {
  it(`finds the stores in a sorted list as the pass over every path does (${propertyRuns(500)} runs)`, () => {
    fc.assert(
      fc.property(fc.subarray(POOL), fc.subarray(POOL), (paths, withSeparator) => {
        const files = [...paths]
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          .map((path) => ({ path, absPath: `/v/${path}`, via: null }));
        const read = (f: { path: string }): string => (withSeparator.includes(f.path) ? 'a\n§\nb\n' : 'a\n');
        expect(detectKind(files, read, true)).toBe(detectKind(files, read, false));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('reads Hermes from a top-level store with a § line, and from the two stores alone', () => {
    const f = (path: string) => ({ path, absPath: `/v/${path}`, via: null });
    const sep = (): string => 'x\n§\ny\n';
    const plain = (): string => 'x\n';
    expect(detectKind([f('MEMORY.md'), f('note.md')], sep, true)).toBe('hermes');
    expect(detectKind([f('MEMORY.md'), f('note.md')], plain, true)).toBe('claude');
    expect(detectKind([f('MEMORY.md'), f('USER.md')], plain, true)).toBe('hermes');
    expect(detectKind([f('MEMORY-x.md'), f('a/MEMORY.md')], sep, true)).toBe('claude');
  });
});
