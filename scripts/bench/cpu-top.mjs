// Summarise V8 CPU profiles (`node --cpu-prof --cpu-prof-dir=D ...`): self and total milliseconds per function.
//   node scripts/bench/cpu-top.mjs D [selfRows=30] [totalRows=60]
// Total time counts a sample once per function even under recursion. Profile the tsc build (dist/lib), not
// the minified bundle, so that names and lines mean something.
import { readdirSync, readFileSync } from 'node:fs';
import { join, basename } from 'node:path';

const [dir, selfRowsArg = '30', totalRowsArg = '60'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/bench/cpu-top.mjs DIR [selfRows] [totalRows]');
  process.exit(2);
}
const self = new Map();
const total = new Map();
let allMs = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => {
    const f = n.callFrame;
    const where = f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'} ${where}`.trim();
  };
  const dt = new Map();
  for (let i = 0; i < prof.samples.length; i += 1) {
    const id = prof.samples[i];
    dt.set(id, (dt.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  }
  for (const [id, ms] of dt) {
    allMs += ms;
    const node = byId.get(id);
    self.set(key(node), (self.get(key(node)) ?? 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  }
}
const show = (title, map, rows) => {
  console.log(`\n${title}`);
  for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms  ${k}`);
  }
};
console.log(`sampled ${allMs.toFixed(0)} ms`);
show('self', self, Number(selfRowsArg));
show('total', total, Number(totalRowsArg));
