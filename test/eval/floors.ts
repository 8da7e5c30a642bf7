/** The no-regression check both evaluation tests share: floors are the numbers BENCHMARKS.md reports. */
import { expect } from 'vitest';
import { evaluatePair, metrics, table, value, type Pair } from './evaluate.js';
import { tempDir } from '../helpers/run.js';

export interface Floors {
  readonly contradictionRecall: number;
  readonly consistentFlaggedMax: number;
  readonly nearDuplicateGuarded: number;
}

export function expectNoRegression(pairs: readonly Pair[], floors: Floors): void {
  const scratch = tempDir();
  const out = pairs.map((p) => evaluatePair(p, scratch));
  console.log(table(out));
  const m = metrics(out);
  expect(value(m.contradictionRecall)).toBeGreaterThanOrEqual(floors.contradictionRecall);
  expect(value(m.consistentFlagged)).toBeLessThanOrEqual(floors.consistentFlaggedMax);
  expect(value(m.nearDuplicateGuarded)).toBeGreaterThanOrEqual(floors.nearDuplicateGuarded);
}
