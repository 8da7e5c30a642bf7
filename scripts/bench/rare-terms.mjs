// The contradictions stage's rare-term pairs, timed in process (CPU ms) on a vault: `rareTermCounts` then its map
// filtered (as the stage did up to session 17), or `visitRareTerms` when LIB has it (no map). Usage: npm run build &&
// node scripts/bench/rare-terms.mjs VAULT [LIB] (LIB: another build's dist/lib, to pair two builds run after run).
import { loadBenchVault } from './in-process.mjs';

const { imp, notes } = await loadBenchVault('rare-terms.mjs');
const F = await imp('similarity/features.js');
const features = F.noteFeatures(notes);
const n = features.length;
const maxDf = Math.max(2, Math.min(25, Math.ceil(n * 0.02)));
const keep = (a, b, count) => count >= 3 || (count >= 2 && features[a].note.meta.type === features[b].note.meta.type);
const runs = [];
let size = 0;
for (let r = 0; r < 3; r++) {
  const c = process.cpuUsage();
  const out = new Set();
  if (F.visitRareTerms) F.visitRareTerms(features, maxDf, (a, b, count) => keep(a, b, count) && out.add(a * n + b));
  else
    for (const [key, count] of F.rareTermCounts(features, maxDf)) {
      const a = Math.floor(key / n),
        b = key % n;
      if (keep(a, b, count)) out.add(key);
    }
  const d = process.cpuUsage(c);
  runs.push(Math.round((d.user + d.system) / 1000));
  size = out.size;
}
console.log(JSON.stringify({ notes: n, pairs: size, visitRareTerms: Boolean(F.visitRareTerms), cpuMs: runs }));
