/**
 * memlint's MEMORY.md cut against Claude Code's own function (test/reference/claude-memdir.ts, a
 * transcription of `truncateEntrypointContent`): the edge cases of issue 13, then random indexes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import type { Config } from '../src/config/schema.js';
import { harnessCut } from '../src/vault/index-file.js';
import { vaultFromText } from '../src/vault/from-text.js';
import type { IndexInfo } from '../src/vault/model.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
import { propertyRuns } from './helpers/ci.js';
import { truncateEntrypointContent } from './reference/claude-memdir.js';

const BUDGET = { maxLines: 200, maxBytes: 25_000 };

function infoOf(text: string, config: Config = DEFAULT_CONFIG): IndexInfo {
  const vault = vaultFromText('/v', config, [{ path: 'MEMORY.md', text, role: 'index' }]);
  return vault.indexInfo!;
}

/** What the reference loads, in memlint's terms: file lines of the entries it drops. */
function referenceLost(raw: string, info: IndexInfo): number[] {
  const ref = truncateEntrypointContent(raw);
  const trimmed = raw.trim();
  if (ref.content === trimmed) return [];
  const contentLines = ref.content.split('\n');
  const whole = trimmed[ref.content.length] === '\n' ? contentLines.length : contentLines.length - 1;
  const start = raw.indexOf(trimmed);
  const skipped = raw.slice(0, start).split('\n').length - 1;
  return info.entries.map((e) => e.line).filter((line) => line - skipped > whole);
}

/** memlint and the reference agree on the loaded text, the counts and the lost entries. */
function expectAgreement(raw: string): void {
  const ref = truncateEntrypointContent(raw);
  // The vault reads the file without its BOM (and remembers it): trim() drops a BOM anyway.
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  const cut = harnessCut(text, BUDGET);
  expect(text.slice(cut.start, cut.loadedEnd)).toBe(ref.content);
  expect(cut.lines).toBe(ref.lineCount);
  expect(cut.size).toBe(ref.byteCount);
  expect(cut.truncated).toBe(ref.wasLineTruncated || ref.wasByteTruncated);
  const info = infoOf(raw);
  expect(info.lostEntries.map((e) => e.line)).toEqual(referenceLost(raw, info));
}

const entry = (i: number, hook = 'one-line hook'): string => `- [Note ${i}](note-${i}.md) — ${hook}`;
const lines = (n: number, hook?: string): string[] => Array.from({ length: n }, (_, i) => entry(i + 1, hook));
const CJK_HOOK = '部署前先运行测试，数据库迁移需要人工确认，周五不发布新版本的规则';
const EMOJI_HOOK = '🚀 deploy 🧪 test 🔒 secrets 📦 release 🐛 bugs 🔥 hotfix ✅ done';

describe('issue 13 edge cases (Claude Code truncateEntrypointContent)', () => {
  it('leading blank lines are trimmed: 3 blank + 200 entries load whole', () => {
    const raw = `\n\n   \n${lines(200).join('\n')}\n`;
    const info = infoOf(raw);
    expect([info.lines, info.loadedLines, info.truncated, info.lostEntries.length]).toEqual([200, 200, false, 0]);
    expectAgreement(raw);
  });

  it('a trailing blank line is trimmed: 200 entries and blank lines after load whole', () => {
    const raw = `${lines(200).join('\n')}\n\n\n`;
    expect(infoOf(raw).truncated).toBe(false);
    expectAgreement(raw);
  });

  it('a BOM is white space to trim(): not counted, nothing cut', () => {
    const body = lines(200).join('\n');
    const raw = `\uFEFF${body}\n`;
    const info = infoOf(raw);
    expect(info.bytes).toBe(body.length);
    expect(info.truncated).toBe(false);
    expectAgreement(raw);
  });

  it('25,001 characters ending in a newline: the newline is trimmed, nothing cut', () => {
    const first = entry(1, 'x'.repeat(100));
    const raw = `${first}\n${'y'.repeat(25_000 - first.length - 1)}\n`;
    expect(raw.length).toBe(25_001);
    const info = infoOf(raw);
    expect([info.bytes, info.truncated]).toEqual([25_000, false]);
    expectAgreement(raw);
  });

  it('a newline exactly at 25,000: the line before it is loaded whole', () => {
    const a = `- [A](a.md) — ${'a'.repeat(24_000)}`;
    const b = `- [B](b.md) — ${'b'.repeat(25_000 - a.length - 1 - 14)}`;
    const raw = `${a}\n${b}\n- [C](c.md) — past the cut\n`;
    expect(raw.indexOf('\n', a.length + 1)).toBe(25_000);
    const info = infoOf(raw);
    expect(info.loadedLines).toBe(2);
    expect(info.lostEntries.map((e) => e.target)).toEqual(['c.md']);
    expectAgreement(raw);
  });

  it('one line past 25,000 characters with a newline at 25,001 is cut at the newline before', () => {
    const a = `- [A](a.md) — ${'a'.repeat(24_000)}`;
    const b = `- [B](b.md) — ${'b'.repeat(25_000 - a.length - 14)}`;
    const raw = `${a}\n${b}\n- [C](c.md) — past\n`;
    expect(raw.indexOf('\n', a.length + 1)).toBe(25_001);
    expect(infoOf(raw).lostEntries.map((e) => e.target)).toEqual(['b.md', 'c.md']);
    expectAgreement(raw);
  });

  it('one huge line and no newline before 25,000: the harness cuts mid-line, the entry counts as lost', () => {
    const raw = `- [A](a.md) — ${'a'.repeat(30_000)}\n- [B](b.md) — b\n`;
    const info = infoOf(raw);
    expect([info.loadedLines, info.lostEntries.length]).toEqual([0, 2]);
    expectAgreement(raw);
  });

  it('a CJK index under 25,000 UTF-16 units but over 25,000 UTF-8 bytes loses nothing', () => {
    const raw = `${lines(190, CJK_HOOK.repeat(2)).join('\n')}\n`;
    expect(new TextEncoder().encode(raw).length).toBeGreaterThan(25_000);
    expect(raw.length).toBeLessThan(25_000);
    const info = infoOf(raw);
    expect([info.truncated, info.lostEntries.length, info.measure]).toEqual([false, 0, 'utf16']);
    expectAgreement(raw);
  });

  it('a 201-line CJK index loads 200 lines', () => {
    const raw = `${lines(201, CJK_HOOK).join('\n')}\n`;
    const info = infoOf(raw);
    expect([info.lines, info.loadedLines, info.lostEntries.map((e) => e.line)]).toEqual([201, 200, [201]]);
    expectAgreement(raw);
  });

  it('an emoji index counts each emoji as two UTF-16 units', () => {
    const raw = `${lines(150, EMOJI_HOOK.repeat(2)).join('\n')}\n`;
    const info = infoOf(raw);
    expect(info.bytes).toBe(raw.trim().length);
    expect(info.bytes).toBeLessThan(new TextEncoder().encode(raw.trim()).length);
    expectAgreement(raw);
    expectAgreement(`${lines(199, EMOJI_HOOK.repeat(2)).join('\n')}\n`);
  });

  it('CRLF: "\\r" is part of each line and counts toward the size', () => {
    const raw = `${lines(200).join('\r\n')}\r\n`;
    const info = infoOf(raw);
    expect([info.lines, info.truncated, info.bytes]).toEqual([200, false, raw.trim().length]);
    expectAgreement(raw);
    const long = `${lines(300, 'z'.repeat(120)).join('\r\n')}\r\n`;
    expect(infoOf(long).loadedLines).toBeLessThan(200);
    expectAgreement(long);
  });

  it('index.measure utf8 runs the same cut in UTF-8 bytes', () => {
    const raw = `${lines(190, CJK_HOOK.repeat(2)).join('\n')}\n`;
    const info = infoOf(raw, { ...DEFAULT_CONFIG, index: { ...DEFAULT_CONFIG.index, measure: 'utf8' } });
    expect(info.measure).toBe('utf8');
    expect(info.truncated).toBe(true);
    expect(info.bytes).toBe(new TextEncoder().encode(raw.trim()).length);
    const loaded = raw.trim().split('\n').slice(0, info.loadedLines).join('\n');
    expect(new TextEncoder().encode(loaded).length).toBeLessThanOrEqual(25_000);
    expect(
      new TextEncoder().encode(
        raw
          .trim()
          .split('\n')
          .slice(0, info.loadedLines + 1)
          .join('\n'),
      ).length,
    ).toBeGreaterThan(25_000);
  });
});

describe('differential: random indexes against the reference', () => {
  const piece = fc.constantFrom(
    'a',
    'word ',
    '部署',
    '🚀',
    ' ',
    '\t',
    '\r',
    'é',
    'ｘ',
    '\u00a0',
    '\u3000',
    '\uFEFF',
    '[[x]]',
    '(n.md)',
  );
  const line = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.nat(400), fc.array(piece, { maxLength: 60 }))
        .map(([i, p]) => `- [N${i}](note-${i}.md) — ${p.join('').repeat(1 + (i % 4))}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', '# Heading', '\r', '\u3000') },
  );
  const index = fc
    .tuple(
      fc.array(line, { minLength: 0, maxLength: 240 }),
      fc.constantFrom('\n', '\r\n'),
      fc.constantFrom('', '\n', '\n\n', ' \n'),
      fc.constantFrom('', '\uFEFF', '\n\n'),
    )
    .map(([ls, eol, tail, head]) => head + ls.join(eol) + tail);

  it('agrees on the loaded text, line and size counts, and lost entries', () => {
    fc.assert(
      fc.property(index, (raw) => {
        expectAgreement(raw);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('agrees near the 25,000 boundary', () => {
    const near = fc
      .tuple(
        fc.integer({ min: 24_900, max: 25_100 }),
        fc.integer({ min: 1, max: 180 }),
        fc.constantFrom('x', '部', '🚀'),
      )
      .map(([total, per, ch]) => {
        const out: string[] = [];
        let len = 0;
        for (let i = 0; len < total; i++) {
          const l = `- [N${i}](n${i}.md) ${ch.repeat(per)}`;
          out.push(l);
          len += l.length + 1;
        }
        return `${out.join('\n')}\n`;
      });
    fc.assert(
      fc.property(near, (raw) => {
        expectAgreement(raw);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe.skipIf(!hasCorpus)('the real indexes of the corpus', () => {
  it('agree with the reference on every claude vault index', () => {
    const files = corpusVaults('claude')
      .map((v) => join(v, 'MEMORY.md'))
      .filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) expectAgreement(readFileSync(f, 'utf8'));
  });
});
