// The flat front-matter fast path (src/vault/yaml-flat.ts) must mean exactly what js-yaml means: wherever it
// answers, js-yaml (CORE_SCHEMA) parses the same block without error to a strictly equal value. Checked on every
// front matter block of the corpus, the fixtures and both bench shapes, and on random blocks built from the
// characters and shapes that change YAML's meaning (indicators, comments, colons, tabs, BOM, C1 controls…).
import { readFileSync } from 'node:fs';
import { load, CORE_SCHEMA } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { flatYaml } from '../src/vault/yaml-flat.js';
// @ts-expect-error: a plain .mjs script without types
import { noteText } from '../scripts/bench/generate.mjs';
import { CORPUS, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';

const OPEN = /^---[ \t]*\r?\n/;
function yamlOf(text: string): string | null {
  const open = OPEN.exec(text);
  if (!open) return null;
  const close = /^(?:---|\.\.\.)[ \t]*\r?$/m.exec(text.slice(open[0].length));
  return close ? text.slice(open[0].length, open[0].length + close.index) : null;
}

/** js-yaml's answer, or 'throws'. */
function reference(yaml: string): unknown {
  try {
    return load(yaml, { schema: CORE_SCHEMA, json: false });
  } catch {
    return 'throws';
  }
}

function agree(blocks: Iterable<string>): { fast: number; total: number } {
  let fast = 0;
  let total = 0;
  for (const y of blocks) {
    total++;
    const got = flatYaml(y);
    if (got === undefined) continue;
    fast++;
    expect(got, JSON.stringify(y)).toStrictEqual(reference(y));
  }
  return { fast, total };
}

describe('flat front matter = js-yaml', () => {
  it.skipIf(!hasCorpus)('on every front matter block of the corpus and the fixtures', () => {
    const blocks: string[] = [];
    for (const f of [...markdownFilesUnder(CORPUS), ...markdownFilesUnder('fixtures')]) {
      const y = yamlOf(readFileSync(f, 'utf8'));
      if (y !== null) blocks.push(y);
    }
    const { fast, total } = agree(blocks);
    expect(total).toBeGreaterThan(1000);
    // Most real front matter is flat: if this drops, the fast path stopped being taken (and stopped paying).
    expect(fast / total).toBeGreaterThan(0.5);
  });

  it("on the bench generator's three front-matter shapes", () => {
    const blocks = Array.from({ length: 300 }, (_, i) => yamlOf(noteText(Math.random, i, 300))!);
    expect(agree(blocks).fast).toBe(300);
  });

  it('on random blocks made of what changes YAML', () => {
    const KEYS = [
      'name',
      'description',
      'type',
      'metadata',
      'a-b',
      '_x',
      'true',
      'True',
      'null',
      '1',
      '__proto__',
      'a b',
      'é',
      '<<',
      '-k',
      '#k',
      'k',
    ];
    const SEPS = [': ', ':', ':  ', ':\t', ' : ', ': ', ': '];
    const BITS = [
      'x',
      'a b',
      'plain',
      '#',
      ' #c',
      ': ',
      ':',
      '"q"',
      "'q'",
      '-1',
      '- x',
      '0x1F',
      '0o7',
      '1_000',
      '012',
      '1e3',
      '.5',
      '.inf',
      '.NaN',
      '~',
      'null',
      'True',
      'yes',
      '2026-01-01T10:00:00Z',
      '*a',
      '&a',
      '!t',
      '|',
      '>',
      '[a]',
      '{a}',
      ',',
      '%',
      '@',
      '`',
      '\t',
      ' ',
      '\r',
      'é',
      '\u0085',
      '\u0086',
      '\uFEFF',
      '\u00a0',
      'ok:',
      'http://x',
      '\\n',
      '?',
      '? x',
      '---',
      '...',
      '"',
      '使用',
      '\ud800',
      '😀',
    ];
    const INDENTS = ['', '', '', '  ', '  ', '    ', ' ', '\t', '\u00a0'];
    let seed = 11;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const key = (): string => (rnd(3) ? pick(['name', 'description', 'type', 'k', 'metadata']) : pick(KEYS));
    const blocks: string[] = [];
    for (let i = 0; i < 20000; i++) {
      const lines: string[] = [];
      for (let l = 1 + rnd(6); l > 0; l--) {
        let v = '';
        // Mostly plain words, so that many blocks are flat and the fast path's answers get compared.
        for (let b = rnd(4); b > 0; b--)
          v += rnd(6) === 0 ? pick(BITS) : pick(['deploy', 'cache', 'staging', 'x1', 'Use pnpm']) + ' ';
        v = v.trimEnd();
        const shape = rnd(5);
        lines.push(
          shape === 0
            ? `${key()}:`
            : `${shape === 1 ? pick(INDENTS) : shape === 2 ? '  ' : ''}${key()}${rnd(3) ? ': ' : pick(SEPS)}${v}`,
        );
      }
      blocks.push(lines.join('\n') + (rnd(2) ? '\n' : ''));
    }
    const { fast, total } = agree(blocks);
    expect(total).toBe(20000);
    expect(fast).toBeGreaterThan(1000);
  });
});
