/**
 * `viewSentence` of a text of several clauses joins its clauses' tokens, content words, tools and negation instead
 * of viewing the whole text a second time (src/similarity/conflict.ts, JoinedSentence), and reads the rest of the
 * whole text's view only when asked. Every field must be what the eager view gives: `viewClause` of the whole text
 * with the clauses' views (the view before session 17). Checked on generated lines built around every clause split
 * and every way tokens may join across one, on lines shaped like the bench's hard index, and on the corpus's lines.
 * And MAY_HOLD_NUMBER (which lets `viewClause` skip reading values) is checked against NFKC on every code point.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSE_SPLIT, MAY_HOLD_NUMBER, viewClause, viewSentence } from '../src/similarity/conflict.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { seeded } from './helpers/seeded.js';

const FIELDS = [
  'text',
  'tokens',
  'content',
  'negated',
  'values',
  'numbers',
  'units',
  'tools',
  'replaces',
  'retired',
  'old',
  'rejected',
  'code',
  'refuses',
  'used',
] as const;

const norm = (v: object): string =>
  JSON.stringify(
    FIELDS.map((f) => (v as Record<string, unknown>)[f]),
    (_k, x: unknown) =>
      x instanceof Set ? [...(x as Set<unknown>)] : x instanceof Map ? [...(x as Map<unknown, unknown>)] : x,
  );

/** The view as it was made before: the whole text's view, with its clauses'. */
function eagerView(text: string): string {
  const whole = viewClause(text);
  const parts = text
    .split(CLAUSE_SPLIT)
    .map((c) => c.trim())
    .filter((c) => c.length > 2);
  return [norm(whole), ...(parts.length > 1 ? parts.map(viewClause) : [whole]).map(norm)].join('\n');
}

const newView = (text: string): string => {
  const v = viewSentence(text);
  return [norm(v), ...v.clauses.map(norm)].join('\n');
};

/** Lines whose views differ, and how many views were joined (not the whole text viewed again). */
function differences(lines: readonly string[]): { differ: string[]; joined: number } {
  const differ: string[] = [];
  let joined = 0;
  for (const l of lines) {
    if (Object.keys(viewSentence(l)).length < FIELDS.length) joined++;
    if (newView(l) !== eagerView(l)) differ.push(l);
  }
  return { differ, joined };
}

const WORDS = [
  'deploy',
  'server',
  'pnpm',
  'npm',
  'jest',
  'vitest',
  'never',
  'not',
  "don't",
  'do',
  'always',
  'use',
  'dropped',
  'replaced',
  'removed',
  'Redis',
  'was',
  'is',
  'gone',
  'port',
  '3000',
  '1,000',
  '8080',
  'v2.1',
  '2024-01-02',
  '10:30',
  '８０',
  '³',
  '①',
  '½',
  'but',
  'BUT',
  'ab',
  'x',
  '日本語',
  '不要',
  'tests',
  'with',
  'the',
  'cache',
  "isn't",
  'avoid',
];
const SEPS = [
  '; ',
  ';',
  ': ',
  ' — ',
  '—',
  ' - ',
  ' – ',
  ' but ',
  ' But ',
  ' (',
  ') ',
  '（',
  '）',
  '，',
  '；',
  '：',
  '、',
  ', never ',
  ', not ',
  ',no ',
  ', ',
  ' ',
  ' ',
  ' ',
  ' ',
];
/** Spans a split may cross (code, paths, URLs, quotes) and words NFKC joins. */
const SPANS = [
  '`a; b`',
  '`src/a; b`',
  'x`a;b`y',
  '`pnpm install`',
  'src/a.ts',
  'a/b; c/d',
  'https://x.io/a: b',
  'https://x.io/a;b',
  'see https://x.io—b',
  '"no; way out"',
  '“a — b c”',
  '1，000',
];

function generated(seed: number, n: number): string[] {
  const rand = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    let line = pick(WORDS);
    const len = 1 + Math.floor(rand() * (rand() < 0.5 ? 4 : 12));
    for (let i = 0; i < len; i++) line += pick(SEPS) + (rand() < 0.08 ? pick(SPANS) : pick(WORDS));
    out.push(line);
  }
  return out;
}

/** Lines shaped like the bench's hard index once links are reduced to their titles. */
function hardShaped(seed: number, n: number): string[] {
  const rand = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const words = ['gelvinzen', 'always', 'pnpm', 'tests', 'before', 'use', 'never', 'docker', 'push', 'jest', 'run'];
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const title = `${pick(['user', 'feedback', 'project', 'reference'])}_${pick(words)}-${rand() < 0.2 ? '试日引回' : pick(words)}`;
    const desc = Array.from({ length: 4 + Math.floor(rand() * 3) }, () => pick(words)).join(' ');
    out.push(
      `${rand() < 0.5 ? 'see also ' : ''}${title} — ${desc[0]!.toUpperCase()}${desc.slice(1)}${rand() < 0.05 ? ' 42' : ''}`,
    );
  }
  return out;
}

describe('viewSentence joins its clauses', () => {
  it('gives every field of the eager view on generated lines', () => {
    const { differ, joined } = differences(generated(17, 4000));
    expect(differ.slice(0, 5)).toEqual([]);
    expect(joined).toBeGreaterThan(300);
  });

  it('gives every field of the eager view on hard-shaped index lines, each joined', () => {
    const lines = hardShaped(3, 1000);
    const { differ, joined } = differences(lines);
    expect(differ).toEqual([]);
    expect(joined).toBe(lines.length);
  });

  it.skipIf(!hasCorpus)("gives every field of the eager view on the corpus's lines", () => {
    const lines: string[] = [];
    for (const v of [...corpusVaults('claude'), ...corpusVaults('hermes')])
      for (const f of markdownFilesUnder(v))
        for (const l of readFileSync(f, 'utf8').split('\n'))
          if (l.trim().length > 3) lines.push(l.replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, ''));
    const { differ, joined } = differences(lines);
    expect(differ.slice(0, 5)).toEqual([]);
    expect(joined).toBeGreaterThan(5000);
  });
});

describe('MAY_HOLD_NUMBER', () => {
  it('holds exactly the characters whose NFKC form holds an ASCII digit', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (MAY_HOLD_NUMBER.test(ch) !== /[0-9]/.test(ch.normalize('NFKC'))) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
