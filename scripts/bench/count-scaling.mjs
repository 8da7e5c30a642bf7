// Pairwise work of `check` (and `consolidate`) on the hard shape at growing sizes, counted, not timed:
// the growth ratio for 4× the notes should stay near 4 (≤ 5). Runs in-process on dist/lib.
// Usage: node scripts/bench/count-scaling.mjs [--sizes 1000,2000,4000] [--consolidate]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateHardVault } from './generate.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string' }, consolidate: { type: 'boolean' } } });
const sizes = (values.sizes ?? '1000,2000,4000').split(',').map(Number);
const lib = join(process.cwd(), 'dist', 'lib');
const { startCounting, stopCounting } = await import(join(lib, 'util', 'counters.js'));
const { checkVault } = await import(join(lib, 'check.js'));
const { consolidateVault } = await import(join(lib, 'consolidate', 'consolidate.js'));
const { loadVault } = await import(join(lib, 'vault', 'load.js'));
const { loadConfig } = await import(join(lib, 'config', 'load.js'));
const rows = [];
for (const n of sizes) {
  const dir = join('bench-out', `count-hard-${n}`);
  generateHardVault(dir, n);
  startCounting();
  const t = performance.now();
  const result = await checkVault(dir);
  const ms = performance.now() - t;
  const counts = stopCounting();
  const row = { n, ms: Math.round(ms), findings: result.findings.length, ...counts };
  if (values.consolidate) {
    // consolidate's own counters (h12's conflict engine reports them in the proposal summary).
    const config = (await loadConfig(dir)).config;
    const t2 = performance.now();
    const proposal = consolidateVault(loadVault(dir, { config }), {});
    row.consolidateMs = Math.round(performance.now() - t2);
    for (const k of ['contradictionCandidatePairs', 'sentenceComparisons'])
      row[`consolidate.${k}`] = proposal.summary?.[k];
  }
  rows.push(row);
  console.log(JSON.stringify(rows.at(-1)));
}
const first = rows[0],
  last = rows.at(-1);
for (const k of Object.keys(last))
  if (k.includes('.') && first[k])
    console.log(
      `${k}: ${first[k]} → ${last[k]} (${(last[k] / first[k]).toFixed(2)}× for ${(last.n / first.n).toFixed(0)}× the notes)`,
    );
