// dead-references' path tokens (src/consolidate/references.ts `pathTokens`) are the matches of PATH_TOKEN over the
// whole body, found by starting the regex only at white-space-separated words that hold a `/`: the same matches,
// in order, as `body.matchAll(PATH_TOKEN)` on every corpus note and on random texts of the characters that matter
// (slashes, the look-behind's characters, the classes' edges, Unicode white space).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATH_TOKEN, pathTokens } from '../src/consolidate/references.js';
import { CORPUS, hasCorpus } from './helpers/corpus.js';

const viaRegex = (body: string): [number, string][] => [...body.matchAll(PATH_TOKEN)].map((m) => [m.index, m[0]]);

function* markdown(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* markdown(p);
    else if (name.endsWith('.md')) yield p;
  }
}

describe('pathTokens', () => {
  it('gives the regex matches on random texts', () => {
    const pieces = [
      '/',
      '/',
      '//',
      '://',
      'a',
      'Z',
      '9',
      '_',
      '.',
      '..',
      '~',
      '~/',
      '-',
      '@',
      '+',
      '*',
      '?',
      '<',
      '>',
      '{',
      '}',
      '$',
      ':',
      '`',
      "'",
      '"',
      ')',
      ']',
      '(',
      'é',
      ' ',
      ' ',
      '\n',
      '\t',
      '\u00a0',
      '\u3000',
      '\u2009',
      'src',
      'http',
      'x.ts',
    ];
    let seed = 7;
    const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    let matches = 0;
    for (let t = 0; t < 20_000; t++) {
      let text = '';
      const len = rand(40);
      for (let i = 0; i < len; i++) text += pieces[rand(pieces.length)];
      const want = viaRegex(text);
      matches += want.length;
      expect(pathTokens(text), JSON.stringify(text)).toEqual(want);
    }
    expect(matches).toBeGreaterThan(2_000);
  });

  it.skipIf(!hasCorpus)('gives the regex matches on every corpus note', () => {
    let files = 0,
      matches = 0;
    for (const f of markdown(CORPUS)) {
      const text = readFileSync(f, 'utf8');
      const want = viaRegex(text);
      matches += want.length;
      expect(pathTokens(text), f).toEqual(want);
      files++;
    }
    expect(files).toBeGreaterThan(100);
    expect(matches).toBeGreaterThan(1000);
  });
});
