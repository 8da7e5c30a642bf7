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
const rows = [];
for (const n of sizes) {
  const dir = join('bench-out', `vault-hard-${n}`);
  generateHardVault(dir, n);
  startCounting();
  const t = performance.now();
  const result = await checkVault(dir);
  const ms = performance.now() - t;
  const counts = stopCounting();
  rows.push({ n, ms: Math.round(ms), findings: result.findings.length, ...counts });
  console.log(JSON.stringify(rows.at(-1)));
}
