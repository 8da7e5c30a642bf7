/**
 * detectKind on discovery's sorted list finds the two Hermes stores by bisection: the same kind as the pass over every
 * path, for any sorted list (names that sort right beside the stores included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectKind } from '../src/vault/roles.js';
import { hasSeparatorLine, hasSeparatorLineIn } from '../src/vault/hermes.js';
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

  // Guard asks it of the index's bytes (no decoding): the same answer as the regex on the decoded text, for any bytes,
  // invalid UTF-8, BOMs, lone CRs and § beside other characters included.
  it(`the § line found in the bytes is the one found in the decoded text (${propertyRuns(2000)} runs)`, () => {
    const PIECES = ['§', '\n', '\r', '\r\n', 'a', ' ', '\uFEFF', '¬', '§§', 'é', '\u2028', '中'].map((t) =>
      Buffer.from(t),
    );
    const RAW = [[0xc2], [0xa7], [0xe2], [0xe2, 0x82], [0xf0, 0x9f], [0xff], [0x80]].map((b) => Buffer.from(b));
    const piece = fc.oneof(fc.constantFrom(...PIECES), fc.constantFrom(...RAW));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const bytes = Buffer.concat(parts);
        expect(hasSeparatorLineIn(bytes)).toBe(hasSeparatorLine(bytes.toString('utf8')));
      }),
      { numRuns: propertyRuns(2000) },
    );
    expect(hasSeparatorLineIn(Buffer.from('x\r§\ry'))).toBe(true);
    expect(hasSeparatorLineIn(Buffer.from('x\n§ \ny'))).toBe(false);
    expect(hasSeparatorLineIn(Buffer.from('\uFEFF§\n'))).toBe(false);
  });

  it('reads Hermes from bytes as from text', () => {
    const f = (path: string) => ({ path, absPath: `/v/${path}`, via: null });
    expect(detectKind([f('MEMORY.md'), f('note.md')], () => Buffer.from('x\n§\ny\n'), true)).toBe('hermes');
    expect(detectKind([f('MEMORY.md'), f('note.md')], () => Buffer.from('x\n§y\n'), true)).toBe('claude');
  });
});
