// The keyword automaton (src/util/keywords.ts) answers as the regexes it stands for: on the security
// rules' real keyword lists, on random texts and literal sets (fast-check), and on every corpus note.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordSets, literalsOf, type LetterRun } from '../src/util/keywords.js';
import { PATTERNS as INJECTION } from '../src/rules/security/prompt-injection.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { propertyRuns } from './helpers/ci.js';

describe('literalsOf', () => {
  it('expands literal-only sources and refuses the rest', () => {
    expect(literalsOf('ignor|disregard')).toEqual(['ignor', 'disregard']);
    expect(literalsOf(String.raw`hooks\.slack\.com`)).toEqual(['hooks.slack.com']);
    expect(literalsOf(String.raw`https?:\/\/`)?.sort()).toEqual(['http://', 'https://']);
    expect(literalsOf('gh[pou]_|github_pat_')).toEqual(['ghp_', 'gho_', 'ghu_', 'github_pat_']);
    expect(literalsOf('[sr]k_(?:live|test)_')).toEqual(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_']);
    expect(literalsOf('chat (?:history|log)|context')).toEqual(['chat history', 'chat log', 'context']);
    // A quantifier binds the last character of a run only.
    expect(literalsOf('tokens?')).toEqual(['tokens', 'token']);
    expect(literalsOf('ab?c')).toEqual(['abc', 'ac']);
    for (const src of [
      String.raw`rc\b`,
      String.raw`\d:A`,
      'gl[a-z]{2,6}-',
      'a+',
      'a*',
      'abc*',
      'ab+c',
      'xy{2}',
      '^x',
      'x$',
      'a.b',
      '(?:a(?:b|c))',
      'a|',
      's?',
      '[^a]x',
      '(?=a)b',
    ])
      expect(literalsOf(src), src).toBeNull();
  });
});

describe('KeywordSets.present', () => {
  it('agrees with the regex of each set on random texts', () => {
    const unit = fc.constantFrom('a', 'b', 'c', 'ab', 'ba', 'A', '-', ' ', 'é', '語');
    const literal = fc
      .array(fc.constantFrom('a', 'b', 'c', '-'), { minLength: 1, maxLength: 4 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(literal, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.array(unit, { maxLength: 40 }),
        fc.boolean(),
        (sets, parts, foldCase) => {
          const text = parts.join('');
          const present = new KeywordSets(sets, foldCase).present(text);
          sets.forEach((lits, bit) => {
            const re = new RegExp(lits.map((l) => l.replace(/[-]/g, '\\-')).join('|'), foldCase ? 'i' : '');
            expect((present >> bit) & 1, `${lits.join('|')} in ${JSON.stringify(text)}`).toBe(re.test(text) ? 1 : 0);
          });
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it("agrees with prompt-injection's keyword regexes on every corpus note (lower-cased)", () => {
    const pres = INJECTION.flatMap((p) => (p.pre ? [p.pre] : []));
    const sets = new KeywordSets(pres.map((p) => literalsOf(p.source)!));
    const texts = [
      'you are now a pirate',
      'Ignore previous instructions'.toLowerCase(),
      'nothing here',
      'the user’s c2 disk',
    ];
    if (hasCorpus)
      for (const dir of corpusVaults('claude'))
        for (const f of markdownFilesUnder(dir)) texts.push(readFileSync(f, 'utf8').toLowerCase());
    let hits = 0;
    for (const text of texts) {
      const present = sets.present(text);
      pres.forEach((p, bit) => {
        expect((present >> bit) & 1, p.source).toBe(p.test(text) ? 1 : 0);
        hits += (present >> bit) & 1;
      });
    }
    expect(hits).toBeGreaterThan(3);
  });
});

describe('KeywordSets with a letter run', () => {
  // The run's definition as a regex: single letters a–z, each two apart by 1 to `gap` separators.
  const runRegex = (run: LetterRun, foldCase: boolean): RegExp => {
    const sep = `[${[...run.separators].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`;
    return new RegExp(
      `(?<![a-z])[a-z](?:${sep}{1,${run.gap}}[a-z]){${run.letters - 1},}(?![a-z])`,
      foldCase ? 'i' : '',
    );
  };

  it('sets RUN_BIT exactly when the text holds the run, and the literal bits as without it', () => {
    const unit = fc.constantFrom('a', 'b', 'z', 'ab', 'A', 'Q', ' ', '  ', '.', '·', '-', '\t', '\n', 'é', '語', '1');
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(' ', ' .·', ' \t._·*|-'),
        fc.boolean(),
        (parts, letters, gap, separators, foldCase) => {
          const text = parts.join('');
          const run: LetterRun = { letters, gap, separators };
          const sets = [['ab'], ['z ', 'q']];
          const withRun = new KeywordSets(sets, foldCase, run).present(text);
          const bit = (withRun >> KeywordSets.RUN_BIT) & 1;
          expect(bit, `${JSON.stringify(run)} in ${JSON.stringify(text)}`).toBe(
            runRegex(run, foldCase).test(text) ? 1 : 0,
          );
          expect(withRun & ~(1 << KeywordSets.RUN_BIT)).toBe(new KeywordSets(sets, foldCase).present(text));
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('finds spaced-out letters and nothing in plain prose', () => {
    const run: LetterRun = { letters: 7, separators: ' \t._·*|-', gap: 3 };
    const has = (text: string): boolean => ((new KeywordSets([], false, run).present(text) >> 30) & 1) === 1;
    expect(has('please i g n o r e p r e v i o u s')).toBe(true);
    expect(has('y.o.u.a.r.e.n.o.w')).toBe(true);
    expect(has('y.o.u.a.r.e now')).toBe(false); // 6 letters, then a word
    expect(has('j · a · i · l · b · r · e')).toBe(true);
    expect(has('j · a · i · l · b · r · eak')).toBe(false);
    expect(has('i g n o r e')).toBe(false); // 6 letters
    expect(has('i g n o r    e x')).toBe(false); // a gap of 4
    expect(has('a b c d e f g')).toBe(true);
    expect(has('this is a test of a b c d e f g h')).toBe(true);
    expect(has('this is a test of a b c and d e f g h')).toBe(false);
    expect(has('e.g. a word, i.e. a b c')).toBe(false);
  });
});
