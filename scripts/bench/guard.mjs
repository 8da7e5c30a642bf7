// Guard as agents call it: a cold process per draft, side by side with `node -e 0`, interleaved,
// medians. With the signature cache at 1k and 10k notes, and without it at 10k.
// Usage: node scripts/bench/guard.mjs [--runs 15] [--shape old|hard]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, indexedNote } from './generate.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string' }, shape: { type: 'string' } } });
const shape = values.shape ?? 'old';
const runs = Number(values.runs ?? 15);
const node = process.execPath;
const cli = join(process.cwd(), 'dist', 'cli.js');
const out = 'bench-out';
mkdirSync(out, { recursive: true });
const noCache = join(out, 'guard-nocache.json');
writeFileSync(noCache, JSON.stringify({ guard: { cache: false } }));

function time(args, input) {
  const t = process.hrtime.bigint();
  const r = spawnSync(node, args, { input, stdio: ['pipe', 'ignore', 'pipe'] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const n of [1000, 10000]) {
  const dir = join(out, shape === 'old' ? `vault-${n}` : `vault-${shape}-${n}`);
  if (!existsSync(join(dir, 'MEMORY.md'))) generate(shape, dir, n);
  const sample = shape === 'old' ? (n > 2000 ? join(dir, 'topic-7', 'note-7.md') : join(dir, 'note-7.md')) : indexedNote(dir, 7);
  const draft = readFileSync(sample, 'utf8').replace(/^name: (.*)$/m, 'name: $1-again') + '\nAlso noted later.\n';
  rmSync(join(dir, '.memlint', 'cache'), { recursive: true, force: true });
  time([cli, 'guard', dir, '--path', 'new-note.md'], draft); // builds the cache
  // An index write that removes one linked line: reachability from the cache's links (issue 18).
  const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8').split('\n');
  const drop = index.findIndex((l, i) => i > 5 && /\]\(/.test(l));
  const indexDraft = index.filter((_, i) => i !== drop).join('\n');
  const tools = { 'node -e 0': [['-e', '0'], draft], 'guard (cache)': [[cli, 'guard', dir, '--path', 'new-note.md'], draft], 'index write (cache)': [[cli, 'guard', dir, '--path', 'MEMORY.md'], indexDraft] };
  if (n === 10000) tools['guard (no cache)'] = [[cli, 'guard', dir, '--path', 'new-note.md', '--config', noCache], draft];
  const samples = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, [args, input]] of Object.entries(tools)) samples[k].push(time(args, input));
  const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  rows.push({ notes: n, ...med });
}
console.log('| notes | node -e 0 | guard with cache | ÷ node -e 0 | index write with cache | ÷ node -e 0 | guard without cache |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.notes.toLocaleString('en')} | ${r['node -e 0'].toFixed(0)} ms | ${r['guard (cache)'].toFixed(0)} ms | ${(r['guard (cache)'] / r['node -e 0']).toFixed(2)}× | ${r['index write (cache)'].toFixed(0)} ms | ${(r['index write (cache)'] / r['node -e 0']).toFixed(2)}× | ${r['guard (no cache)'] ? `${r['guard (no cache)'].toFixed(0)} ms` : '—'} |`);
