/**
 * The evaluation of issue 12: pairs of notes written by people who never saw the detector
 * (test/data/eval/*.jsonl, format in test/data/eval/FORMAT.md), split once into tune and test halves
 * (split.json, committed before any tuning). For each pair: the conflict engine on the two notes (what
 * consolidate's contradiction stage runs), the shared similarity, and guard's verdict on b written
 * next to a.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { guardDraft } from '../../src/guard/guard.js';
import { noteClauses, noteConflicts } from '../../src/similarity/conflict.js';
import { hash32 } from '../../src/similarity/minhash.js';
import { similarity, THRESHOLDS } from '../../src/similarity/score.js';
import { shingleHashes, statedText, tokens } from '../../src/similarity/text.js';
import { vaultFromText } from '../../src/vault/from-text.js';

export const CATEGORIES = [
  'contradiction',
  'consistent',
  'near-duplicate',
  'paraphrase',
  'unrelated-same-topic',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Pair {
  readonly id: string;
  readonly lang: string;
  readonly category: Category;
  readonly subtype: string;
  readonly a: string;
  readonly b: string;
  readonly why: string;
}

export const EVAL_DIR = join(process.cwd(), 'test', 'data', 'eval');

export function loadPairs(dir = EVAL_DIR): Pair[] {
  const out: Pair[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.jsonl'))
    .sort()) {
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        const o = JSON.parse(line) as Partial<Pair>;
        for (const k of ['id', 'lang', 'category', 'subtype', 'a', 'b'] as const)
          if (typeof o[k] !== 'string') throw new Error(`${f}:${i + 1}: no ${k}`);
        if (!(CATEGORIES as readonly string[]).includes(o.category!))
          throw new Error(`${f}:${i + 1}: unknown category ${o.category}`);
        out.push(o as Pair);
      });
  }
  return out;
}

/**
 * The split rule, applied once: within each (category, language) stratum, pairs sorted by a hash of
 * their id alternate tune, test, tune, … split.json records the result; it is not recomputed.
 */
export function splitOnce(pairs: readonly Pair[]): Record<string, 'tune' | 'test'> {
  const strata = new Map<string, Pair[]>();
  for (const p of pairs) {
    const k = `${p.category}/${p.lang}`;
    strata.set(k, [...(strata.get(k) ?? []), p]);
  }
  const out: Record<string, 'tune' | 'test'> = {};
  for (const k of [...strata.keys()].sort()) {
    const list = strata.get(k)!.sort((x, y) => hash32(x.id) - hash32(y.id) || (x.id < y.id ? -1 : 1));
    list.forEach((p, i) => {
      out[p.id] = i % 2 === 0 ? 'tune' : 'test';
    });
  }
  return out;
}

export function readSplit(dir = EVAL_DIR): Record<string, 'tune' | 'test'> {
  return JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8')) as Record<string, 'tune' | 'test'>;
}

const withFm = (name: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${name}\ntype: project\n---\n\n${body}\n`;

export interface Outcome {
  readonly pair: Pair;
  readonly conflict: string | null;
  readonly similarity: number;
  readonly guard: 'ok' | 'ask' | 'refuse';
}

export function evaluatePair(pair: Pair, scratch: string): Outcome {
  const vault = vaultFromText(scratch, DEFAULT_CONFIG, [
    { path: 'a.md', text: withFm('a', pair.a) },
    { path: 'b.md', text: withFm('b', pair.b) },
  ]);
  const [na, nb] = vault.notes;
  const found = noteConflicts(noteClauses(na!), noteClauses(nb!), 1)[0];
  const sim = similarity(shingleHashes(tokens(statedText(na!))), shingleHashes(tokens(statedText(nb!)))).score;
  const dir = join(scratch, pair.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.md'), withFm('note-a', pair.a));
  writeFileSync(join(dir, 'MEMORY.md'), '- [note-a](a.md)\n');
  const g = guardDraft(
    dir,
    { ...DEFAULT_CONFIG, guard: { ...DEFAULT_CONFIG.guard, cache: false } },
    withFm('note-b', pair.b),
    { targetPath: 'b.md', cache: 'off' },
  );
  return {
    pair,
    conflict: found ? `${found.conflict.kind}: ${found.conflict.detail}` : null,
    similarity: sim,
    guard: g.verdict,
  };
}

export interface Rate {
  readonly hit: number;
  readonly of: number;
}
const rate = (xs: readonly Outcome[], f: (o: Outcome) => boolean): Rate => ({
  hit: xs.filter(f).length,
  of: xs.length,
});
export const value = (r: Rate): number => (r.of === 0 ? NaN : r.hit / r.of);

export interface Metrics {
  /** Contradiction pairs the conflict engine flags. */
  readonly contradictionRecall: Rate;
  /** Consistent-but-related pairs it flags (false alarms). */
  readonly consistentFlagged: Rate;
  readonly unrelatedFlagged: Rate;
  /** Near-duplicate (light edit) pairs guard refuses or asks on. */
  readonly nearDuplicateGuarded: Rate;
  /** Paraphrases at or above the duplicate threshold. */
  readonly paraphraseRecall: Rate;
  /** Of the non-near-duplicate pairs at or above the threshold, how many are paraphrases. */
  readonly paraphrasePrecision: Rate;
}

export function metrics(outcomes: readonly Outcome[]): Metrics {
  const of = (c: Category) => outcomes.filter((o) => o.pair.category === c);
  const merged = outcomes.filter(
    (o) =>
      ['paraphrase', 'consistent', 'unrelated-same-topic'].includes(o.pair.category) &&
      o.similarity >= THRESHOLDS.duplicate,
  );
  return {
    contradictionRecall: rate(of('contradiction'), (o) => o.conflict !== null),
    consistentFlagged: rate(of('consistent'), (o) => o.conflict !== null),
    unrelatedFlagged: rate(of('unrelated-same-topic'), (o) => o.conflict !== null),
    nearDuplicateGuarded: rate(of('near-duplicate'), (o) => o.guard !== 'ok'),
    paraphraseRecall: rate(of('paraphrase'), (o) => o.similarity >= THRESHOLDS.duplicate),
    paraphrasePrecision: rate(merged, (o) => o.pair.category === 'paraphrase'),
  };
}

export function table(outcomes: readonly Outcome[]): string {
  const fmt = (r: Rate): string => (r.of === 0 ? '–' : `${value(r).toFixed(2)} (${r.hit}/${r.of})`);
  const rows: string[] = [
    '| slice | contradiction recall | consistent flagged | unrelated flagged | near-dup guarded | paraphrase recall | paraphrase precision |',
    '|---|---|---|---|---|---|---|',
  ];
  const slices: [string, Outcome[]][] = [['all', [...outcomes]]];
  for (const lang of [...new Set(outcomes.map((o) => o.pair.lang))].sort())
    slices.push([`lang ${lang}`, outcomes.filter((o) => o.pair.lang === lang)]);
  for (const w of [...new Set(outcomes.map((o) => o.pair.id.split('-')[0]!))].sort())
    slices.push([`writer ${w}`, outcomes.filter((o) => o.pair.id.startsWith(`${w}-`))]);
  for (const [label, xs] of slices) {
    const m = metrics(xs);
    rows.push(
      `| ${label} | ${fmt(m.contradictionRecall)} | ${fmt(m.consistentFlagged)} | ${fmt(m.unrelatedFlagged)} | ${fmt(m.nearDuplicateGuarded)} | ${fmt(m.paraphraseRecall)} | ${fmt(m.paraphrasePrecision)} |`,
    );
  }
  return rows.join('\n');
}
