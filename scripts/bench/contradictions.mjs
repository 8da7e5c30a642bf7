// consolidate's contradictions stage, timed in process (CPU ms) on a vault, with its counters and a digest of
// its items (two builds must give one digest). Usage: npm run build && node scripts/bench/contradictions.mjs
// VAULT [LIB] (LIB: another build's dist/lib, to pair two builds on the same vault, run after run).
import { createHash } from 'node:crypto';
import { loadBenchVault } from './in-process.mjs';

const { imp, vault, notes } = await loadBenchVault('contradictions.mjs');
const { noteFeatures, similarPairs } = await imp('similarity/features.js');
const { STAGES } = await imp('consolidate/stages/index.js');
const { startCounting, stopCounting } = await imp('util/counters.js');
const features = noteFeatures(notes);
const pairs = similarPairs(features);
const stage = STAGES.find((s) => s.id === 'contradictions');
const summary = {};
const ctx = { vault, notes, features, pairs, inbound: new Map(), root: null, rootSource: 'none', path: '', summary };
startCounting();
const c = process.cpuUsage();
const items = stage.run(ctx);
const d = process.cpuUsage(c);
const counters = stopCounting();
console.log(
  JSON.stringify({
    notes: notes.length,
    items: items.length,
    digest: createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 16),
    stageCpuMs: Math.round((d.user + d.system) / 1000),
    ...summary,
    ...counters,
  }),
);
