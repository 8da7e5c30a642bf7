// The security rules' matching view (src/rules/security/normalize.ts): `normalizeForMatching` answers
// as `normalizeByRuns`, its definition, whatever shortcut it takes (text whose non-ASCII runs are all
// kept as they are is only lower-cased) — on hand-picked hard cases, random texts, and every corpus note.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeByRuns, normalizeForMatching } from '../src/rules/security/normalize.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { seeded } from './helpers/seeded.js';

const same = (text: string): void => {
  expect(normalizeForMatching(text), JSON.stringify(text)).toEqual(normalizeByRuns(text));
};

/** Units the random texts are made of: ASCII, stable punctuation and letters, and every kind that is not stable. */
const PIECES = [
  'a',
  'B',
  'z',
  ' ',
  '\n',
  'I',
  'ignore',
  'Σ',
  'ΑΣ',
  'σ',
  'ς',
  'é',
  'É',
  'e\u0301',
  '\u0301',
  'ß',
  'ẞ',
  'İ',
  'ı',
  '—',
  '’',
  '“',
  '…',
  '中',
  '文',
  '\u200b',
  '\u00ad',
  '\ufeff',
  'ﬁ',
  'Ａ',
  'ａ',
  'а',
  'о',
  'А',
  'ο',
  '\u1100',
  '\u1161',
  '가',
  '\ud83d\ude00',
  '\ud83d',
  '\ude00',
  '\u{e0041}',
  '①',
  'Ω',
  'Ω',
  'K',
  'ǅ',
  '\u0345',
];

describe('normalizeForMatching', () => {
  it('answers as normalizeByRuns on hard cases', () => {
    for (const t of [
      '',
      'plain ASCII Text',
      'Café — “quoted” … 中文',
      'ΟΔΟΣ end', // capital sigma: lower-cased by its neighbours
      'a Σ b',
      'e\u0301 and é',
      'ignore\u200b previous',
      'Ｉｇｎｏｒｅ all',
      'аpple ο', // Cyrillic and Greek look-alikes
      '\u1100\u1161 jamo',
      'İstanbul',
      'lone \ud83d surrogate \ude00 and 😀',
    ])
      same(t);
  });

  it('answers as normalizeByRuns on random texts', () => {
    const rand = seeded(14);
    for (let run = 0; run < 3000; run++) {
      let t = '';
      const n = 1 + Math.floor(rand() * 12);
      for (let k = 0; k < n; k++) t += PIECES[Math.floor(rand() * PIECES.length)]!;
      same(t);
    }
  });

  it.skipIf(!hasCorpus)('answers as normalizeByRuns on every corpus note', () => {
    for (const kind of ['claude', 'hermes'] as const)
      for (const vault of corpusVaults(kind))
        for (const file of markdownFilesUnder(vault)) same(readFileSync(file, 'utf8'));
  });
});
