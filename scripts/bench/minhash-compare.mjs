// memlint's MinHash + LSH against the npm `minhash` package (0.0.9), same shingles, same shape
// (120 permutations, bands of 3 rows): time per note and recall on planted light edits.
// Usage: node scripts/bench/minhash-compare.mjs [notes=10000] [planted=200]
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateVault, rng } from './generate.mjs';

const require = createRequire(import.meta.url);
const Minhash = require('minhash/src/minhash.js');
const LshIndex = require('minhash/src/lsh.js');
const { loadVault } = await import('../../dist/lib/vault/load.js');
const { DEFAULT_CONFIG } = await import('../../dist/lib/config/defaults.js');
const { statedText, tokens, shingles } = await import('../../dist/lib/similarity/text.js');
const { signature, hashSet, lshCandidates, PERMUTATIONS, ROWS } = await import('../../dist/lib/similarity/minhash.js');

const n = Number(process.argv[2] ?? 10000);
const plantedCount = Number(process.argv[3] ?? 200);
const dir = join('bench-out', `vault-${n}`);
if (!existsSync(join(dir, 'MEMORY.md'))) generateVault(dir, n);
const vault = loadVault(dir, { config: DEFAULT_CONFIG });
const r = rng(11);
const sets = vault.notes.map((note) => shingles(tokens(statedText(note))));
// Planted light edits: a word changed, a sentence moved, or a line added.
const planted = [];
for (let k = 0; k < plantedCount; k++) {
  const i = Math.floor(r() * vault.notes.length);
  let t = tokens(statedText(vault.notes[i]));
  const edit = k % 3;
  if (edit === 0) {
    t = [...t];
    t[Math.floor(r() * t.length)] = 'changed';
  } else if (edit === 1) {
    const cut = Math.floor(t.length / 3);
    t = [...t.slice(cut), ...t.slice(0, cut)];
  } else t = [...t, 'also', 'noted', 'in', 'a', 'later', 'session'];
  planted.push([i, sets.length]);
  sets.push(shingles(t));
}
const ms = (f) => {
  const s = process.hrtime.bigint();
  const v = f();
  return [Number(process.hrtime.bigint() - s) / 1e6, v];
};

const [oursSig, sigs] = ms(() => sets.map((s) => signature(hashSet(s))));
const [oursLsh, pairs] = ms(() => lshCandidates(sigs));
const found = new Set(pairs.map(([a, b]) => `${a}:${b}`));
const oursRecall = planted.filter(([a, b]) => found.has(`${a}:${b}`)).length / planted.length;
console.log(
  `memlint  : ${((oursSig * 1000) / sets.length).toFixed(1)} µs/note signature, LSH ${oursLsh.toFixed(0)} ms for ${sets.length} notes, recall ${oursRecall.toFixed(3)} on ${planted.length} planted edits, ${pairs.length} candidate pairs`,
);

// npm minhash: measured on all notes up to 12,000, else on a sample, extrapolated and labelled so.
const sample = sets.length <= 12_000 ? sets : sets.slice(0, 2000);
const [npmSig, mhs] = ms(() =>
  sample.map((s) => {
    const m = new Minhash({ numPerm: PERMUTATIONS });
    for (const x of s) m.update(x);
    return m;
  }),
);
const perNote = npmSig / sample.length;
let line = `npm minhash: ${(perNote * 1000).toFixed(1)} µs/note signature${sample === sets ? '' : ` (measured on ${sample.length} notes; ${((perNote * sets.length) / 1000).toFixed(0)} s extrapolated for ${sets.length})`}`;
if (sample === sets) {
  const index = new LshIndex({ bandSize: ROWS });
  const [npmLsh, hits] = ms(() => {
    mhs.forEach((m, i) => index.insert(i, m));
    return planted.map(([a, b]) => index.query(mhs[a]).includes(String(b)));
  }); // it returns keys as strings
  line += `, LSH ${npmLsh.toFixed(0)} ms, recall ${(hits.filter(Boolean).length / planted.length).toFixed(3)}`;
  try {
    index.query(new Minhash({ numPerm: PERMUTATIONS }));
    line += '; querying an uninserted signature: ok';
  } catch (e) {
    line += `; querying a signature never inserted throws: ${e.message}`;
  }
}
console.log(line);
