/**
 * The near-duplicate stage reads, for each cluster, only the merging pairs of the note it keeps (issue 14: it read
 * every merging pair once per cluster, clusters × pairs). Counted on vaults of many two-note clusters: twice the
 * clusters must be about twice the reads, not four times.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import nearDuplicates from '../src/consolidate/stages/near-duplicates.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { vaultFromText } from '../src/vault/from-text.js';

/** `clusters` pairs of notes, each pair saying one thing in the same words, every pair on another subject. */
function vault(clusters: number) {
  const files = [];
  for (let c = 0; c < clusters; c++) {
    const fact = `Service s${c} listens on port ${1000 + c} behind gateway g${c} and logs to bucket b${c} every night at ${c % 24} hours.`;
    for (const side of ['a', 'b'])
      files.push({
        path: `n${c}${side}.md`,
        text: `---\nname: n${c}${side}\ndescription: service s${c}\ntype: project\n---\n\n${fact}\n`,
      });
  }
  return vaultFromText('/tmp/near-dup-scaling', DEFAULT_CONFIG, files);
}

function counted(clusters: number): { reads: number; items: number } {
  const v = vault(clusters);
  startCounting();
  const p = consolidateVault(v, { stages: [nearDuplicates], now: new Date('2026-01-01T00:00:00Z') });
  const c = stopCounting();
  return {
    reads: c['nearDuplicates.clusterPairReads'] ?? 0,
    items: p.items.filter((i) => i.kind === 'near-duplicate').length,
  };
}

describe('near-duplicate clusters', () => {
  it('read their own pairs, not every pair: the reads grow with the clusters', () => {
    const small = counted(100);
    const large = counted(400);
    // Every pair is its own cluster and a merge item.
    expect(small.items).toBe(100);
    expect(large.items).toBe(400);
    expect(small.reads).toBeGreaterThan(0);
    expect(large.reads / small.reads).toBeLessThanOrEqual(5);
  });
});
