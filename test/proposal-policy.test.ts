/**
 * The proposal policy is the independent labels, not a guess: every kind proposed by default measured at
 * PROPOSE_AT or above, every kind below it is info, and the numbers in MEASURED are the labels' own
 * (test/data/proposal-precision.json, session 6; docs/proposal-precision.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { ITEM_KINDS } from '../src/config/item-kinds.js';
import { isProposed, MEASURED, PROPOSE_AT } from '../src/consolidate/policy.js';

interface Label {
  kind: string;
  status: string;
  label: 'useful' | 'noise';
}
const labels = JSON.parse(readFileSync('test/data/proposal-precision.json', 'utf8')) as Label[];

describe('proposal policy', () => {
  it('MEASURED holds the labels: useful / labelled per kind, counting the items the kind proposes', () => {
    for (const kind of ITEM_KINDS) {
      const rows = labels.filter((l) => l.kind === kind && l.status === 'proposed');
      const m = MEASURED[kind];
      if (rows.length === 0) {
        expect(m.precision, kind).toBeNull();
        continue;
      }
      expect(m.labelled, kind).toBe(rows.length);
      expect(m.precision, kind).toBeCloseTo(rows.filter((l) => l.label === 'useful').length / rows.length, 2);
    }
  });

  it('a kind is proposed by default exactly when it measured at PROPOSE_AT or above', () => {
    for (const kind of ITEM_KINDS) {
      const p = MEASURED[kind].precision;
      expect(isProposed(kind, DEFAULT_CONFIG), kind).toBe(p !== null && p >= PROPOSE_AT);
    }
  });
});
