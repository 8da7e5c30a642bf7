/**
 * Issue 12: contradiction items on the real vaults, labelled (test/data/contradiction-precision.json).
 * Consolidate runs on every corpus vault; the items it emits must be exactly the labelled ones (a
 * change that adds or drops an item must label it), and the false ones stay at most 1 per 100 notes.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import { loadVault } from '../src/vault/load.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';

interface Labelled {
  vault: string;
  notes: [string, string];
  detail: string;
  label: 'useful' | 'noise';
  reason: string;
}
const LABELS = JSON.parse(
  readFileSync(join(process.cwd(), 'test', 'data', 'contradiction-precision.json'), 'utf8'),
) as { notes: number; items: Labelled[] };

describe.skipIf(!hasCorpus)('contradiction items on the corpus', () => {
  it('are exactly the labelled ones, and at most 1 false item per 100 notes', () => {
    const emitted: string[] = [];
    let notes = 0;
    for (const dir of [...corpusVaults('claude'), ...corpusVaults('hermes')]) {
      const vault = loadVault(dir, { config: DEFAULT_CONFIG });
      const proposal = consolidateVault(vault, { now: new Date(0) });
      notes += Number(proposal.summary?.notes ?? 0);
      const name = `${basename(dirname(dir))}/${basename(dir)}`;
      for (const item of [...proposal.items, ...(proposal.info ?? [])].filter((i) => i.kind === 'contradiction')) {
        emitted.push(`${name} ${item.notes.map((n) => n.path).join(' | ')}`);
      }
    }
    const labelled = LABELS.items.map((l) => `${l.vault} ${l.notes.join(' | ')}`);
    expect(emitted.sort()).toEqual(labelled.sort());
    expect(notes).toBe(LABELS.notes);
    const noise = LABELS.items.filter((l) => l.label === 'noise').length;
    expect(noise / (notes / 100)).toBeLessThanOrEqual(1);
    for (const l of LABELS.items) expect(l.reason.length, l.detail).toBeGreaterThan(20);
  }, 600_000);
});
