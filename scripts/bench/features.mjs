// consolidate's note features and similar pairs, timed in process (CPU ms) on a vault: the two calls every
// similarity stage reads. Usage: npm run build && node scripts/bench/features.mjs VAULT [LIB]
// (LIB: another build's dist/lib, to pair two builds on the same vault, run after run).
import { join, resolve } from 'node:path';

const [dir, libArg] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: node scripts/bench/features.mjs VAULT [LIB]\n');
  process.exit(2);
}
const lib = resolve(libArg ?? join(process.cwd(), 'dist', 'lib'));
const { loadVault } = await import(join(lib, 'vault', 'load.js'));
const { loadConfig } = await import(join(lib, 'config', 'load.js'));
const { noteFeatures, similarPairs } = await import(join(lib, 'similarity', 'features.js'));
const { notesUnderRules } = await import(join(lib, 'rules', 'reachability.js'));
const vault = loadVault(dir, { config: (await loadConfig(dir)).config });
const cpu = (f) => {
  const c = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(c);
  return [r, Math.round((d.user + d.system) / 1000)];
};
const [features, featuresMs] = cpu(() => noteFeatures(notesUnderRules(vault)));
const [pairs, pairsMs] = cpu(() => similarPairs(features));
const shingles = features.reduce((s, f) => s + f.shingles.length, 0);
console.log(
  JSON.stringify({
    notes: features.length,
    shingles,
    pairs: pairs.length,
    featuresCpuMs: featuresMs,
    pairsCpuMs: pairsMs,
  }),
);
