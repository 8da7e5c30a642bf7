/**
 * index/lost-correction asks the conflict engine only about the pairs `mayConflict` keeps. That screen must
 * never drop a pair the engine finds a conflict in: checked here on every pair sharing a subject word of
 * generated lines built to hit each kind of conflict (tools, values, negation, antonyms, retired terms,
 * shared prefixes, clause splits, code spans, links), and of the corpus's index and bullet lines. And
 * `lostCorrections` gives what the unscreened loop gives (every candidate to the engine, in order).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linesConflict, mayConflict, subjectWords, viewLine, type Viewed } from '../src/rules/index/contradiction.js';
import { lostCorrections } from '../src/rules/index/lost-correction.js';
import type { IndexEntry } from '../src/vault/model.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { seeded } from './helpers/seeded.js';

const sharedCount = (a: Viewed, b: Viewed): number => {
  let n = 0;
  for (const w of subjectWords(a)) if (subjectWords(b).has(w)) n++;
  return n;
};

/** Every ordered pair of `lines` sharing a subject word: engine conflicts, the ones the screen drops, and kinds. */
function screenPairs(lines: readonly string[]): {
  pairs: number;
  dropped: number;
  kinds: Map<string, number>;
  missed: string[];
} {
  const views = lines.map(viewLine);
  const kinds = new Map<string, number>();
  const missed: string[] = [];
  let pairs = 0,
    dropped = 0;
  for (let i = 0; i < views.length; i++)
    for (let j = 0; j < views.length; j++) {
      if (i === j) continue;
      const shared = sharedCount(views[i]!, views[j]!);
      if (shared === 0) continue;
      pairs++;
      const keep = mayConflict(views[i]!, views[j]!, shared);
      if (!keep) dropped++;
      const c = linesConflict(views[i]!, views[j]!);
      if (c) {
        kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
        if (!keep) missed.push(`${lines[i]} ⟂ ${lines[j]} (${c.kind}: ${c.detail})`);
      }
    }
  return { pairs, dropped, kinds, missed };
}

const SUBJECTS = ['deploy', 'server', 'port', 'tests', 'database', 'api', 'cache', 'worker', 'build', 'staging'];
const FRAGMENTS = [
  'use pnpm for {s}',
  'use npm for {s}',
  'run {s} with jest',
  'run {s} with vitest',
  'replaced jest with vitest for {s}',
  'never run npm install in {s}',
  'we dropped {s} tailwind',
  'the {s} cron job is gone',
  'Redis {s} was removed',
  '{s} port is 3000',
  '{s} port is 8080',
  '{s} timeout 30 seconds',
  '{s} timeout 45 seconds',
  '{s} prefers answers in Korean',
  '{s} prefers answers in English',
  '{s} {t} uploads are enabled',
  '{s} {t} uploads are disabled',
  '{s} {t} checks are reliable',
  '{s} {t} checks are unreliable',
  'do not restart the {s} {t} queue',
  'restart the {s} {t} queue',
  'always restart the {s} {t} queue nightly',
  '`{s}` lives in src/{t}/index.ts',
  'see [[{s}-{t}]] and [notes]({t}.md)',
  '{s} {t} version 3.86.0',
  '{s} {t} version 3.90',
  '日本語の{s}は不要',
  // A value keyed by a marker word: two shared content words, different openings.
  '{s} {t} every 30',
  'check {s} {t} every 45',
  // A one-word retired term.
  'Redis was removed',
  'use Redis for {s}',
  // A quote across a clause split: the line's words lack the clause's.
  '{s} said "{s} {t} uploads are enabled; ok"',
];
const SEPARATORS = ['; ', ', ', ' — ', ' but ', ': ', ' (', ', never ', ' - '];

function generatedLines(seed: number, n: number): string[] {
  const rand = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const parts: string[] = [];
    const count = 1 + Math.floor(rand() * 3);
    for (let p = 0; p < count; p++)
      parts.push(pick(FRAGMENTS).replaceAll('{s}', pick(SUBJECTS)).replaceAll('{t}', pick(SUBJECTS)));
    let line = parts[0]!;
    for (let p = 1; p < parts.length; p++) line += pick(SEPARATORS) + parts[p];
    out.push(`${pick(['- ', '- ', '* ', '1. ', ''])}${line}`);
  }
  return out;
}

describe('mayConflict', () => {
  it('keeps every pair the engine finds a conflict in (generated lines, every kind)', () => {
    const lines = generatedLines(14, 360);
    const r = screenPairs(lines);
    expect(r.missed).toEqual([]);
    // Not vacuous: conflicts of every kind, and the screen drops many pairs.
    for (const kind of ['value', 'substitution', 'polarity', 'replacement', 'retired'])
      expect(r.kinds.get(kind) ?? 0, kind).toBeGreaterThan(5);
    expect(r.dropped).toBeGreaterThan(r.pairs * 0.1);
  });

  it.skipIf(!hasCorpus)(
    'keeps every pair the engine finds a conflict in (corpus index and bullet lines)',
    () => {
      let pairs = 0,
        dropped = 0,
        conflicts = 0;
      const missed: string[] = [];
      for (const dir of corpusVaults('claude')) {
        const lines: string[] = [];
        for (const file of markdownFilesUnder(dir)) {
          for (const line of readFileSync(file, 'utf8').split('\n'))
            if (/^\s*(?:[-*+]|\d{1,9}[.)])\s/.test(line) && line.length < 400) lines.push(line);
        }
        const r = screenPairs(lines.slice(0, 160));
        pairs += r.pairs;
        dropped += r.dropped;
        for (const n of r.kinds.values()) conflicts += n;
        missed.push(...r.missed);
      }
      expect(missed).toEqual([]);
      expect(conflicts).toBeGreaterThan(20);
      expect(dropped).toBeGreaterThan(pairs * 0.5);
    },
    120_000,
  );
});

describe('lostCorrections', () => {
  it('gives what the unscreened loop gives', () => {
    const lines = generatedLines(99, 600);
    const entries: IndexEntry[] = lines.map((text, i) => ({ line: i + 1, text, target: null }));
    const loaded = entries.slice(0, 200),
      lost = entries.slice(200);
    const views = loaded.map((e) => viewLine(e.text));
    const expected: [number, number, string][] = [];
    for (const e of lost) {
      const v = viewLine(e.text);
      for (let i = 0; i < views.length; i++) {
        if (sharedCount(v, views[i]!) === 0) continue;
        const c = linesConflict(v, views[i]!);
        if (c) {
          expected.push([e.line, loaded[i]!.line, c.detail]);
          break;
        }
      }
    }
    expect(expected.length).toBeGreaterThan(50);
    expect(lostCorrections(loaded, lost).map((c) => [c.lost.line, c.loaded.line, c.conflict.detail])).toEqual(expected);
  });
});
