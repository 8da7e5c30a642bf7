// Differential for the sentence conflict engine (src/similarity/conflict.ts): two builds' viewSentence and
// sentenceConflict on every line of the corpus and of the bench indexes, and on up to 3 M pairs of lines sharing a
// content word (sampled, as index/lost-correction pairs them). Prints the differences (must be 0).
//   node scripts/bench/conflict-same.mjs BASE_LIB NEW_LIB [VAULT...]   (LIB: a build's dist/lib)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolve } from 'node:path';
const [baseLib, newLib, ...vaults] = process.argv.slice(2);
if (!baseLib || !newLib) {
  process.stderr.write('usage: node scripts/bench/conflict-same.mjs BASE_LIB NEW_LIB [VAULT...]\n');
  process.exit(2);
}
const A = await import(join(resolve(baseLib), 'similarity', 'conflict.js'));
const B = await import(join(resolve(newLib), 'similarity', 'conflict.js'));
const lines = [];
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    const s = statSync(p);
    if (s.isDirectory()) walk(p);
    else if (e.endsWith('.md'))
      for (const l of readFileSync(p, 'utf8').split('\n')) if (l.trim().length > 3) lines.push(l);
  }
};
walk(join(process.cwd(), '..', 'shared', 'corpus'));
for (const v of vaults) for (const l of readFileSync(join(v, 'MEMORY.md'), 'utf8').split('\n')) lines.push(l);
console.log('lines', lines.length);
// A view's fields by name (a view may read some of them on first use, from getters JSON.stringify does not see).
const FIELDS = ['text', 'tokens', 'content', 'negated', 'values', 'numbers', 'units', 'tools', 'replaces', 'retired'];
FIELDS.push('old', 'rejected', 'code', 'refuses', 'used', 'clauses');
const fields = (v) =>
  v && typeof v === 'object' && 'tokens' in v ? Object.fromEntries(FIELDS.map((f) => [f, v[f]])) : v;
const norm = (x) =>
  JSON.stringify(fields(x), (k, v) =>
    v instanceof Set ? [...v] : v instanceof Map ? [...v] : Array.isArray(v) && k === 'clauses' ? v.map(fields) : v,
  );
const plainOf = (l) =>
  l
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|#]+)(?:[^\]]*)\]\]/g, '$1');
const va = [],
  vb = [];
let viewDiff = 0;
for (const l of lines) {
  const p = plainOf(l);
  const a = A.viewSentence(p),
    b = B.viewSentence(p);
  va.push(a);
  vb.push(b);
  if (norm(a) !== norm(b)) viewDiff++;
}
console.log('view differences', viewDiff);
// Pairs sharing a content word (as the rule compares them), sampled.
const byWord = new Map();
va.forEach((v, i) => {
  for (const w of v.content) (byWord.get(w) ?? byWord.set(w, []).get(w)).push(i);
});
let pairs = 0,
  diffs = 0,
  found = 0;
const kinds = {};
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let i = 0; i < va.length && pairs < 3_000_000; i++) {
  const cands = new Set();
  for (const w of va[i].content) {
    const l = byWord.get(w);
    for (let k = 0; k < Math.min(l.length, 40); k++) cands.add(l[Math.floor(rnd() * l.length)]);
  }
  for (const j of cands) {
    pairs++;
    const a = A.sentenceConflict(va[i], va[j]),
      b = B.sentenceConflict(vb[i], vb[j]);
    if (a) {
      found++;
      kinds[a.kind] = (kinds[a.kind] ?? 0) + 1;
    }
    if (norm(a) !== norm(b)) {
      diffs++;
      if (diffs < 5) console.log('DIFF', lines[i], '|', lines[j], norm(a), norm(b));
    }
  }
}
console.log('pairs', pairs, 'conflicts', found, 'differences', diffs, kinds);
process.exitCode = diffs || viewDiff ? 1 : 0;
