import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scanMarkdown, type ScanResult } from '../src/vault/scan.js';
import { computeLineStarts } from '../src/vault/decode.js';
import { splitFrontmatter } from '../src/vault/frontmatter.js';
import { remarkReading } from './helpers/remark-reading.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';

const inside = (ranges: readonly (readonly [number, number])[], at: number): boolean =>
  ranges.some(([s, e]) => at >= s && at < e);

/** Every place a link, wikilink or file mention could start: what both readers must agree on. */
function candidates(body: string): number[] {
  const out: number[] = [];
  const re = /\[\[|\]\(|[^\s`]+\.md\b/g;
  for (let m = re.exec(body); m; m = re.exec(body)) out.push(m.index);
  return out;
}

export function disagreements(body: string): string[] {
  const scan = scanMarkdown(body, 0);
  const remark = remarkReading(body);
  const problems: string[] = [];
  for (const at of candidates(body)) {
    const a = inside(scan.codeRanges, at);
    const b = inside(remark.opaque, at);
    if (a !== b)
      problems.push(
        `offset ${at} (${JSON.stringify(body.slice(at, at + 30))}): scanner says ${a ? 'code' : 'text'}, remark says ${b ? 'code' : 'text'}`,
      );
  }
  const dec = (u: string): string => {
    try {
      return decodeURI(u);
    } catch {
      return u;
    }
  };
  const localMd = (u: string): boolean => /\.md(#.*)?$/i.test(u) && !/^[a-z][a-z0-9+.-]*:/i.test(u);
  const fromScan = scan.links
    .filter((l) => (l.kind === 'markdown' || l.kind === 'definition') && localMd(dec(l.target)))
    .map((l) => `${l.kind}@${l.offset}:${dec(l.target)}`)
    .sort();
  const fromRemark = remark.links
    .filter((l) => localMd(dec(l.url)))
    .map((l) => `${l.kind}@${l.offset}:${dec(l.url)}`)
    .sort();
  const missing = fromRemark.filter((x) => !fromScan.includes(x));
  const extra = fromScan.filter((x) => !fromRemark.includes(x));
  for (const m of missing) problems.push(`link remark found, scanner missed: ${m}`);
  for (const x of extra) problems.push(`link scanner found, remark did not: ${x}`);
  return problems;
}

function bodyOf(text: string): string {
  const fm = splitFrontmatter(text);
  return fm && !fm.error ? text.slice(fm.bodyOffset) : text;
}

describe.skipIf(!hasCorpus)('fast scanner agrees with remark-parse on every corpus note', () => {
  const files = [...corpusVaults('claude'), ...corpusVaults('hermes')].flatMap(markdownFilesUnder);
  it(`reads ${files.length} corpus files the same way`, () => {
    expect(files.length).toBeGreaterThan(1000);
    const report: string[] = [];
    for (const f of files) {
      const body = bodyOf(readFileSync(f, 'utf8').replace(/^\uFEFF/, ''));
      for (const p of disagreements(body)) report.push(`${f.split('/corpus/')[1]}: ${p}`);
    }
    expect(report.slice(0, 40)).toEqual([]);
  });
});

const EDGE_CASES: string[] = [
  'See [a](a.md) and [b](<b c.md>) and [c](c.md "title").\n',
  'Inline `[x](x.md)` code and ``double `tick` [y](y.md)`` spans.\n',
  '```bash\n[[ -f x ]] && cat notes.md\n```\n\n[[real-link]] after the fence\n',
  '~~~\n[z](z.md)\n~~~\n',
  '- item\n\n      indented code [q](q.md) in a list\n\n- [r](r.md)\n',
  'para\n    lazy continuation [s](s.md)\n',
  '\n    indented code [t](t.md)\n\ntext [u](u.md)\n',
  '<!-- hidden [v](v.md) -->\n\n[w](w.md)\n',
  '<div>\n[html](html.md)\n</div>\n\n[after](after.md)\n',
  'Escaped \\[not](n.md) and \\`not code\\` [yes](yes.md)\n',
  '![image](img.md) and [link with `code.md` inside](inside.md)\n',
  '[def]: defined.md\n\nUse [def].\n',
  '> quote with [quoted](quoted.md)\n> ```\n> [in-quote-code](iqc.md)\n> ```\n',
  '1. one\n   ```\n   [fenced-in-list](fil.md)\n   ```\n2. [two](two.md)\n',
  'Unclosed `backtick [still](link.md)\n',
  'Wikilinks [[a-note]], [[b note|alias]], [[c#heading]], code `[["error"]]`, bash [[ -n "$x" ]].\n',
  'Mention `feedback_x.md` and `not a mention.md` and `path/to/y.md`.\n',
  '# Heading [h](h.md)\nSetext\n---\n[after-setext](as.md)\n',
  'Link over\nlines [multi\nline](ml.md) ok\n',
  'Parens [p](file(1).md) and [pp](a.md))\n',
  '`code spanning\nlines [x](x.md)` then [y](y.md)\n',
  '\tTab-indented code [tab](tab.md)\n',
  '```\nunclosed fence [uf](uf.md)\n',
  'CRLF line [crlf](crlf.md)\r\nnext `x.md`\r\n',
  '<https://example.com/a.md> autolink and <b.md> not\n',
  '* a\n* b\n\n  continued [c](c.md)\n\n    deeper [d](d.md)\n',
];

describe('fast scanner agrees with remark-parse on edge cases', () => {
  it.each(EDGE_CASES.map((c, i) => [i, c] as const))('edge case %i', (_i, text) => {
    expect(disagreements(text)).toEqual([]);
  });
});

describe('the scanner reads lines in place from the text’s line starts', () => {
  const piece = fc.constantFrom(
    '\n',
    '\r\n',
    '\r',
    ' ',
    '    ',
    '\t',
    '- ',
    '* ',
    '12) ',
    '1234567890. ',
    '# ',
    '####### ',
    '> ',
    '```',
    '~~~',
    '`',
    '``',
    '<!--',
    '-->',
    '<div>',
    '<pre>',
    '</pre>',
    '[',
    ']',
    '[[',
    ']]',
    '(',
    ')',
    'a',
    'b.md',
    '|',
    '#h',
    '[a]: b.md',
    '<http://x>',
    '\\',
    '!',
    '[a](b.md)',
    '[[note]]',
    '語',
    '\u3000',
    '\u2028',
    'word ',
    '\n\n',
  );
  const texts = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
  const shifted = (r: ScanResult, by: number): ScanResult => ({
    links: r.links.map((l) => ({ ...l, offset: l.offset + by })),
    codeRanges: r.codeRanges.map(([s, e]) => [s + by, e + by] as const),
  });
  it('a scan from a line start, with the starts given or made, reads that text’s rest as a text of its own', () => {
    fc.assert(
      fc.property(texts, fc.nat(), (text, pick) => {
        const starts = computeLineStarts(text);
        const from = starts[pick % starts.length]!;
        const alone = shifted(scanMarkdown(text.slice(from), 0), from);
        expect(scanMarkdown(text, from, starts)).toEqual(alone);
        expect(scanMarkdown(text, from)).toEqual(alone);
      }),
      { numRuns: 3000 },
    );
  });
  it('a scan from inside a line reads the rest of that line as its first line', () => {
    fc.assert(
      fc.property(texts, fc.nat(), (text, pick) => {
        const from = pick % (text.length + 1);
        const alone = shifted(scanMarkdown(text.slice(from), 0), from);
        expect(scanMarkdown(text, from, computeLineStarts(text))).toEqual(alone);
      }),
      { numRuns: 3000 },
    );
  });
});
