// consolidate's note features and similar pairs, timed in process (CPU ms) on a vault: the two calls every
// similarity stage reads. Usage: npm run build && node scripts/bench/features.mjs VAULT [LIB]
// (LIB: another build's dist/lib, to pair two builds on the same vault, run after run).
import { loadBenchVault } from './in-process.mjs';

const { imp, vault, notesUnderRules } = await loadBenchVault('features.mjs');
const { noteFeatures, similarPairs } = await imp('similarity/features.js');
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
