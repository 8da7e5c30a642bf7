// consolidate's contradictions stage, timed in process (CPU ms) on a vault, with its counters and a digest of
// its items (two builds must give one digest). Usage: npm run build && node scripts/bench/contradictions.mjs
// VAULT [LIB] (LIB: another build's dist/lib, to pair two builds on the same vault, run after run).
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';

const [dir, libArg] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: node scripts/bench/contradictions.mjs VAULT [LIB]\n');
  process.exit(2);
}
const lib = resolve(libArg ?? join(process.cwd(), 'dist', 'lib'));
const { loadVault } = await import(join(lib, 'vault', 'load.js'));
const { loadConfig } = await import(join(lib, 'config', 'load.js'));
const { noteFeatures, similarPairs } = await import(join(lib, 'similarity', 'features.js'));
const { notesUnderRules } = await import(join(lib, 'rules', 'reachability.js'));
const { STAGES } = await import(join(lib, 'consolidate', 'stages', 'index.js'));
const { startCounting, stopCounting } = await import(join(lib, 'util', 'counters.js'));
const vault = loadVault(dir, { config: (await loadConfig(dir)).config });
const notes = notesUnderRules(vault);
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
