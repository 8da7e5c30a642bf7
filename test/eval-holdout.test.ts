/**
 * Issue 12's second held-out set (test/data/eval-holdout/D-holdout.jsonl): 104 pairs written in session 4 by a
 * writer who saw neither the code nor the first set, never used for tuning (README beside it). Whole set, no
 * split. The floors are the numbers BENCHMARKS.md reports for it: contradiction recall 5/40, consistent flagged
 * 1/40, light edits guarded 12/12; paraphrase recall (0/12) is printed, not asserted (a floor of 0 cannot fail).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPairs } from './eval/evaluate.js';
import { expectNoRegression } from './eval/floors.js';

const FLOORS = { contradictionRecall: 5 / 40, consistentFlaggedMax: 1 / 40, nearDuplicateGuarded: 1.0 };

describe('held-out pair set D (never tuned on)', () => {
  it('contradiction recall, false alarms, near-duplicates through guard: no regression', () => {
    const pairs = loadPairs(join(process.cwd(), 'test', 'data', 'eval-holdout'));
    expect(pairs.length).toBe(104);
    expectNoRegression(pairs, FLOORS);
  }, 120_000);
});
