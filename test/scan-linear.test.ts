/**
 * Issue 16: the markdown scanner is linear in its input on every pathological construct. Work is
 * counted (src/util/counters.ts: characters the scanner steps over or searches), not timed, so the
 * loaded CI machine cannot make it flaky: input grown 1× → 8× must grow the count at most ~8×.
 */
import { describe, expect, it } from 'vitest';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { scanMarkdown } from '../src/vault/scan.js';

const CONSTRUCTS: Record<string, (n: number) => string> = {
  'unclosed link destination `[a](b`': (n) => '[a](b'.repeat(n),
  'image `![a](b`': (n) => '![a](b'.repeat(n),
  'unclosed title `[a](b "`': (n) => '[a](b "x'.repeat(n),
  'unclosed paren title `[a](b (`': (n) => '[a](b (x'.repeat(n),
  'open brackets `[`': (n) => '['.repeat(n * 5),
  'wikilink openers `[[`': (n) => '[['.repeat(n * 2),
  'angle destination `[a](<b`': (n) => '[a](<b'.repeat(n),
  'nested parens `[a](((((`': (n) => `[a](${'('.repeat(n * 5)}`,
  'link openers `[a](`': (n) => '[a]('.repeat(n),
  'reference-ish `[a][`': (n) => '[a]['.repeat(n),
  'backtick runs': (n) => Array.from({ length: n }, (_, i) => '`'.repeat((i % 7) + 1) + 'x').join(''),
  'code in brackets ``[` ``': (n) => '[`'.repeat(n * 2),
  'escaped brackets `\\[`': (n) => '\\[a](b'.repeat(n),
  'comment openers `<!--`': (n) => '<!--'.repeat(n),
  'links in one long line': (n) => '[a](b.md) '.repeat(n),
  'plain paragraphs, one `[` at the end': (n) => 'plain words, nothing to open\n\n'.repeat(n) + '[',
};

function work(text: string): number {
  startCounting();
  scanMarkdown(text, 0);
  const c = stopCounting();
  return (
    Object.entries(c)
      .filter(([k]) => k.startsWith('scan.'))
      .reduce((s, [, v]) => s + v, 0) + text.length
  );
}

describe('the scanner is linear on pathological input (work counted)', () => {
  for (const [name, make] of Object.entries(CONSTRUCTS)) {
    it(name, () => {
      const small = work(make(2000));
      const large = work(make(16000));
      expect(large / small, `${small} → ${large}`).toBeLessThan(8 * 1.5);
    });
  }
});
