/** shingleHashes is hashSet(shingles(...)) without the strings: equal on every corpus note and on odd input. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashSet } from '../src/similarity/minhash.js';
import { shingleHashes, shingles, textShingleHashes, tokens } from '../src/similarity/text.js';
import { CORPUS, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { propertyRuns } from './helpers/ci.js';

const same = (text: string): void => {
  const toks = tokens(text);
  expect([...shingleHashes(toks)]).toEqual([...hashSet(shingles(toks))]);
};

describe('shingleHashes', () => {
  it('equals hashSet(shingles()) on edge cases', () => {
    for (const t of [
      '',
      'a',
      'the',
      'the a',
      'deploy',
      'deploy deploy deploy',
      'use pnpm. not npm!',
      '中文 记忆 测试',
      'the 中 the 文',
      "it's o'neil's --- x-",
      'ＦＵＬＬ width',
      '1,000,000 and 3.14',
      'é e\u0301',
    ])
      same(t);
  });

  it('equals hashSet(shingles()) on random text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('the', 'a', 'deploy', 'pnpm', '中', '文', 'x.', "y'", 'z-', '1,000', 'Ü'),
            fc.string({ maxLength: 6 }),
          ),
          { maxLength: 40 },
        ),
        (words) => same(words.join(' ')),
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it.skipIf(!hasCorpus)('equals hashSet(shingles()) on every corpus file', () => {
    const files = markdownFilesUnder(CORPUS);
    expect(files.length).toBeGreaterThan(1000);
    for (const f of files) same(readFileSync(f, 'utf8'));
  });
});

describe('textShingleHashes', () => {
  // The reference: the token strings, then their hashes (what consolidate's note features used before).
  const same = (text: string): void => {
    expect([...textShingleHashes(text)]).toEqual([...shingleHashes(tokens(text))]);
  };
  it('equals shingleHashes(tokens()) on edge cases', () => {
    for (const t of [
      '',
      ' \n\t\r ',
      'the',
      'The A an',
      'Deploy, deploy. DEPLOY!',
      '1,000,000 and 3.14 and 1,000.5x and 12345,678 and 1234,567 and 1,0000 and 1,000. and ,123',
      "it's o'neil's --- x- _a_ a_b-c.d 9.",
      'use\u00a0pnpm not\u3000npm', // no-break and ideographic spaces: NFKC makes them spaces
      'cafe\u0301 café e\u0301 \u0301x', // a combining accent composes with the letter before it
      'ΟΔΟΣ ΟΔΟΣ. ΣΑΣ', // final sigma: lower-casing reads its neighbours
      'İstanbul ǅemal ﬁle ＦＵＬＬ１，０００', // special lower-casing, a ligature, full-width letters and digits
      '中文 记忆 the 测试 x中y',
      'a—b “quoted” word’s end',
      'x\ud800y \udc00', // lone surrogates
    ])
      same(t);
  });
  it('equals shingleHashes(tokens()) on random text', () => {
    const unit = fc.constantFrom(
      ..."aZ09 _.,'-\n\t\r!?#`*[]()/:;|".split(''),
      'é',
      '\u0301',
      '\u00a0',
      '\u3000',
      'Σ',
      'İ',
      'ﬁ',
      '１',
      '，',
      '中',
      '—',
      '’',
      'the',
      '1,000',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 120 }), (parts) => same(parts.join(''))),
      { numRuns: propertyRuns(3000) },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (t) => same(t)),
      { numRuns: propertyRuns(1000) },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (t) => same(t)),
      {
        numRuns: propertyRuns(1000),
      },
    );
  });
  it.skipIf(!hasCorpus)('equals shingleHashes(tokens()) on every corpus file', () => {
    const files = markdownFilesUnder(CORPUS);
    expect(files.length).toBeGreaterThan(1000);
    for (const f of files) same(readFileSync(f, 'utf8'));
  });
});

describe('tokens', () => {
  // The reference: the Unicode-property regex on the NFKC form, for every text.
  const TOKEN =
    /\d{1,3}(?:,\d{3})+(?:\.\d+)?|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}][\p{L}\p{N}_.'-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
  const reference = (text: string): string[] =>
    (text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []).map((t) => t.replace(/[.'-]+$/, ''));

  it('the ASCII fast path gives the tokens the Unicode regex gives, on random ASCII text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."aZ09 _.,'-\n\t!?#`*[]()1,000.5:;/\\|é中".split('')), maxLength: 200 }),
        (t) => {
          expect(tokens(t)).toEqual(reference(t));
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (t) => {
        expect(tokens(t)).toEqual(reference(t));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('a text holding a non-ASCII character, read in runs of ASCII and other segments, gives the same tokens', () => {
    const edge = [
      'use\u00a0pnpm not\u3000npm and ascii after',
      'cafe\u0301 café e\u0301 \u0301x plain words',
      'ΟΔΟΣ ΟΔΟΣ. ΣΑΣ and Σ alone, then ascii',
      'İstanbul ǅemal ﬁle ＦＵＬＬ１，０００ 1,000 x',
      'ascii first 中文 记忆 the 测试 x中y then ascii 1,000.5',
      "a—b “quoted” word’s end, it's done.",
      'x\ud800y \udc00 z',
    ];
    for (const t of edge) expect(tokens(t), t).toEqual(reference(t));
    const unit = fc.constantFrom(
      ..."aZ09 _.,'-\n\t\r!?#`*[]()/:;|".split(''),
      'é',
      '\u0301',
      '\u00a0',
      '\u3000',
      'Σ',
      'ς',
      'İ',
      'ﬁ',
      '１',
      '，',
      '中',
      '—',
      '’',
      'the',
      '1,000',
      'word ',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 160 }), (parts) => {
        const t = parts.join('');
        expect(tokens(t)).toEqual(reference(t));
      }),
      { numRuns: propertyRuns(4000) },
    );
  });

  it.skipIf(!hasCorpus)('… and on every corpus file', () => {
    for (const f of markdownFilesUnder(CORPUS)) {
      const text = readFileSync(f, 'utf8');
      expect(tokens(text)).toEqual(reference(text));
    }
  });
});
