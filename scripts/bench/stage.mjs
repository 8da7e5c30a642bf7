// One consolidate stage that reads only the vault (not the note features), timed in process (CPU ms), with a digest
// of its items (two builds must give one digest). Usage: npm run build && node scripts/bench/stage.mjs VAULT [LIB]
// with STAGE=<id> in the environment (not-memory, dead-references, index-overflow, orphans, incidents, …).
import { createHash } from 'node:crypto';
import { loadBenchVault } from './in-process.mjs';

const { imp, vault, notes } = await loadBenchVault('stage.mjs');
const { STAGES } = await imp('consolidate/stages/index.js');
const id = process.env.STAGE ?? 'not-memory';
const stage = STAGES.find((s) => s.id === id);
if (!stage) {
  process.stderr.write(`no stage ${id}: ${STAGES.map((s) => s.id).join(', ')}\n`);
  process.exit(2);
}
const summary = {};
const ctx = {
  vault,
  notes,
  features: [],
  pairs: [],
  inbound: new Map(),
  root: null,
  rootSource: 'none',
  path: '',
  summary,
};
const runs = Number(process.env.RUNS ?? 1);
let items = [];
const ms = [];
for (let r = 0; r < runs; r++) {
  const c = process.cpuUsage();
  items = stage.run(ctx);
  const d = process.cpuUsage(c);
  ms.push(Math.round((d.user + d.system) / 1000));
}
const digest = createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 16);
console.log(JSON.stringify({ stage: id, notes: notes.length, items: items.length, digest, stageCpuMs: ms, summary }));
