/**
 * The contradictions stage pairs notes by the rare subject terms they share. Note features number the terms in the
 * shingles' own scan of each stated text (`scanTokens` under `textShingleHashes`: no string per token), and
 * `rareTermCounts` counts the pairs from those numbers; these compare it with the definition it replaced: the note's
 * tokens (`tokens(statedText(note))`), filtered by `isSubjectTerm`, as a set of strings, through `sharedRareKeys`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isSubjectTerm,
  noteFeatures,
  rareTermCounts,
  sharedRareKeys,
  visitRareTerms,
} from '../src/similarity/features.js';
import { fnvState, FNV_OFFSET } from '../src/similarity/minhash.js';
import { scanTokens, statedText, STOPWORDS, tokens } from '../src/similarity/text.js';
import type { VaultFile } from '../src/vault/model.js';

/** A note holding `text` as its body (what statedText and noteFeatures read of it). */
const asNote = (text: string): VaultFile => ({ text, bodyOffset: 0, meta: {} }) as unknown as VaultFile;

const reference = (texts: readonly string[], maxDf: number): [number, number][] =>
  [
    ...sharedRareKeys(texts.length, (i) => new Set(tokens(statedText(asNote(texts[i]!))).filter(isSubjectTerm)), maxDf),
  ].sort((x, y) => x[0] - y[0]);
const actual = (texts: readonly string[], maxDf: number): [number, number][] =>
  [...rareTermCounts(noteFeatures(texts.map(asNote)), maxDf)].sort((x, y) => x[0] - y[0]);

/** Words and separators of every kind the tokenizer tells apart: case, digits, stop words, trailing marks, non-ASCII, CJK. */
const WORDS = [
  'Deploy',
  'deploy',
  'DEPLOY',
  'vitest',
  'Vitest.',
  "jest's",
  'rollout-',
  'ab',
  'abc',
  '3rd',
  '1,000',
  '12,345.6',
  'v1.2.3',
  'snake_case',
  'the',
  'The',
  'never',
  'não',
  'Não',
  'café',
  'CAFÉ',
  'ﬁle',
  'Ｄｅｐｌｏｙ',
  '２０２６',
  'é',
  '部署',
  '使用测试',
  'ΣΟΦΙΑ',
  'straße',
  'İstanbul',
  'deploy—now',
  'x—deploy',
  '(deploy)',
  '`vitest`',
  // One FNV-1a state, two words: the table must tell them apart by their text.
  'glbvs',
  'yacxa',
  'GLBVS',
];
const SEPARATORS = [' ', '  ', '\n', '\t', ', ', '. ', '\u00a0', '\u3000', ' — '];

describe('rareTermCounts of note features', () => {
  it('the two colliding words of the pool have one FNV-1a state (so the collision path is exercised)', () => {
    expect(fnvState(FNV_OFFSET, 'glbvs')).toBe(fnvState(FNV_OFFSET, 'yacxa'));
  });

  it('scanTokens hands on the tokens of tokens(), stop words left out, in order', () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 40 })
      .map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, (t) => {
        const seen: string[] = [];
        scanTokens(t, (from, to, word) => seen.push(word ?? t.slice(from, to).toLowerCase()));
        expect(seen).toEqual(tokens(t).filter((x) => !STOPWORDS.has(x)));
      }),
      { numRuns: 500 },
    );
  });

  it('counts what sharedRareKeys counts on the notes’ subject terms as strings', () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 30 })
      .map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), (texts, maxDf) => {
        expect(actual(texts, maxDf)).toEqual(reference(texts, maxDf));
      }),
      { numRuns: 400 },
    );
  });

  it('visitRareTerms hands on the entries of rareTermCounts, in the map’s order (the contradictions stage’s pairs)', () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 30 })
      .map((parts) => parts.map(([w, s]) => w + s).join(''));
    let pairs = 0;
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), (texts, maxDf) => {
        const features = noteFeatures(texts.map(asNote));
        const visited: [number, number][] = [];
        visitRareTerms(features, maxDf, (a, b, count) => visited.push([a * texts.length + b, count]));
        pairs += visited.length;
        expect(visited).toEqual([...rareTermCounts(features, maxDf)]);
      }),
      { numRuns: 300 },
    );
    expect(pairs).toBeGreaterThan(100);
  });

  it('keeps colliding terms apart, and every term once per note, past the table growing', () => {
    // 6,000 distinct terms (the table starts at 4,096 slots) spread over 40 notes, with the colliding pair.
    const texts = Array.from({ length: 40 }, (_, i) => {
      const words: string[] = [];
      for (let k = 0; k < 300; k++) words.push(`term${(i * 151 + k * 7) % 6000}x`, k % 50 === 0 ? 'Term1X' : 'and');
      if (i % 3 === 0) words.push('glbvs', 'GLBVS');
      if (i % 4 === 1) words.push('yacxa');
      return words.join(' ');
    });
    for (const maxDf of [2, 3, 5, 25]) expect(actual(texts, maxDf)).toEqual(reference(texts, maxDf));
    // The colliding words alone: notes 0 and 3 share glbvs only, notes 1 and 5 yacxa only, never each other.
    const pair = ['glbvs x', 'yacxa y', 'zzz', 'GLBVS', 'zzz', 'yacxa'];
    expect(actual(pair, 5)).toEqual([
      [0 * 6 + 3, 1],
      [1 * 6 + 5, 1],
      [2 * 6 + 4, 1],
    ]);
  });
});
