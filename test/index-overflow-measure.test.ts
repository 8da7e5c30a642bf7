// index-overflow measures each candidate index without parsing it as a vault (issue 14): the exact
// measure must equal what parsing the same text as a vault gives (readIndex's lines and bytes), and the
// lower bound that lets it skip measuring must never exceed the exact value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/schema.js';
import { lowerBound, measure, type Move } from '../src/consolidate/stages/index-overflow.js';
import { vaultFromText } from '../src/vault/from-text.js';

const piece = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '  - [a](a.md) note',
    '# Heading',
    '\u3000',
    '\uFEFF',
    '\u00a0x',
    '中文 笔记',
    '😀 emoji',
    '\uD800',
    'a\u0000b',
    'tail  ',
    '\r',
  ),
  fc.string({ maxLength: 12 }),
);

describe('index-overflow: measuring a candidate index', () => {
  it('equals readIndex of the same text parsed as a vault, and the lower bound never exceeds it', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 30 }),
        fc.array(piece, { maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(29), fc.nat(4), piece), { maxLength: 4 }),
        fc.constantFrom('utf16', 'utf8'),
        fc.constantFrom(1 << 20, 60),
        (lines, extra, crlf, bom, rawMoves, measureKind, maxFileBytes) => {
          const base = defaultConfig();
          const config = { ...base, maxFileBytes, index: { ...base.index, measure: measureKind as 'utf16' | 'utf8' } };
          const index = vaultFromText('/v', config, [{ path: 'MEMORY.md', text: 'x', role: 'index' }]).index!;
          const file = { ...index, crlf, bom };
          const vault = { root: '/v', config } as Parameters<typeof measure>[0];
          // Non-overlapping moves, ascending, as render() makes them.
          const moves: Move[] = [];
          let next = 1;
          for (const [at, len, pointer] of rawMoves.sort((a, b) => a[0] - b[0])) {
            const from = Math.max(next, at + 1);
            const to = Math.min(lines.length, from + len);
            if (from > lines.length) break;
            moves.push({ from, lines: lines.slice(from - 1, to), note: 'n.md', frontmatter: '', pointer });
            next = to + 1;
          }
          const out: string[] = [];
          const at = new Map(moves.map((m) => [m.from, m]));
          for (let i = 1; i <= lines.length; i++) {
            const m = at.get(i);
            if (m) {
              if (m.pointer) out.push(m.pointer);
              i += m.lines.length - 1;
              continue;
            }
            out.push(lines[i - 1]!);
          }
          const candidate = [...out, ...extra];
          const exact = measure(vault, file, candidate);
          const sep = crlf ? '\r\n' : '\n';
          const text = `${bom ? '\uFEFF' : ''}${candidate.join(sep)}${candidate.length ? sep : ''}`;
          const parsed = vaultFromText('/v', config, [{ path: 'MEMORY.md', text, role: 'index' }]).indexInfo!;
          expect({ lines: exact.lines, bytes: exact.bytes }).toEqual({ lines: parsed.lines, bytes: parsed.bytes });
          const low = lowerBound(vault, file, lines, extra)(moves);
          if (low) {
            expect(low.lines).toBeLessThanOrEqual(exact.lines);
            expect(low.bytes).toBeLessThanOrEqual(exact.bytes);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
