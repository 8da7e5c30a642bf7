// npm run bench: side-by-side, in one run, interleaved; medians; ratios against the floor and peers.
// Usage: node scripts/bench.mjs [--sizes 1000,10000,100000] [--runs 5] [--no-peers]
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateVault } from './bench/generate.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string' }, runs: { type: 'string' }, 'no-peers': { type: 'boolean' }, only: { type: 'string' } } });
const sizes = (values.sizes ?? '1000,10000,100000').split(',').map(Number);
const runs = Number(values.runs ?? 5);
const OUT = 'bench-out';
mkdirSync(OUT, { recursive: true });
const node = process.execPath;
const cli = join(process.cwd(), 'dist', 'cli.js');
const mdlint = join(process.cwd(), 'node_modules', 'markdownlint-cli2', 'markdownlint-cli2-bin.mjs');

function time(cmd, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}
/** Peak resident memory of one run, from GNU time when the machine has it. */
function peakRssMb(cmd, args) {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

const rows = [];
const cachedRows = [];
for (const n of sizes) {
  const dir = join(OUT, `vault-${n}`);
  if (!existsSync(join(dir, 'MEMORY.md'))) generateVault(dir, n);
  spawnSync(node, [cli, 'catalog', dir, '--write']);
  const edited = join(dir, n > 2000 ? join('topic-3', 'note-3.md') : 'note-3.md');
  const editedOriginal = readFileSync(edited);
  const added = join(dir, 'added-by-bench.md');
  const tools = {
    'node -e 0': [node, ['-e', '0']],
    floor: [node, ['scripts/bench/floor.mjs', dir]],
    'memlint check': [node, [cli, 'check', dir, '--format', 'json']],
    // --cache as a pre-commit hook meets it: nothing changed; one note edited; one note added (the
    // vault's shape changes, so every link is resolved again). The edit and the new note are made
    // before the clock starts, a new one for every run (the added note is removed after its run and
    // the cache brought up to date, so that "unchanged" means unchanged).
    'check --cache, unchanged': [node, [cli, 'check', dir, '--format', 'json', '--cache']],
    'check --cache, 1 edited': [node, [cli, 'check', dir, '--format', 'json', '--cache'], () => appendFileSync(edited, `Edited ${Date.now()}.\n`)],
    'check --cache, 1 added': [node, [cli, 'check', dir, '--format', 'json', '--cache'], () => writeFileSync(added, `---\nname: added-${Date.now()}\ndescription: d\ntype: user\n---\nNew.\n`), () => { rmSync(added); spawnSync(node, [cli, 'check', dir, '--cache'], { stdio: 'ignore' }); }],
    'memlint consolidate': [node, [cli, 'consolidate', dir, '--out', join(OUT, `proposal-${n}.yaml`)]],
  };
  const peers = !values['no-peers'] && n <= 10000;
  if (peers) tools['markdownlint-cli2'] = [node, [mdlint, `${dir}/**/*.md`]];
  const samples = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  const r = n >= 100000 ? Math.min(runs, 3) : runs;
  rmSync(join(dir, '.memlint', 'cache', 'check-v1.jsonl'), { force: true });
  for (const [cmd, args] of Object.values(tools)) time(cmd, args); // warm the page cache (and build the check cache)
  for (let i = 0; i < r; i++) {
    for (const [name, [cmd, args, before, after]] of Object.entries(tools)) {
      if ((name === 'markdownlint-cli2' || (name === 'memlint consolidate' && n >= 100000)) && i >= Math.min(r, name === 'memlint consolidate' ? 1 : 3)) continue;
      before?.();
      samples[name].push(time(cmd, args));
      after?.();
    }
  }
  writeFileSync(edited, editedOriginal);
  const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  med['consolidate RSS MB'] = peakRssMb(node, tools['memlint consolidate'][1]);
  rows.push({ notes: n, runs: r, ...med });
  const line = [`${n} notes`, ...Object.entries(med).filter(([k]) => !k.includes('RSS')).map(([k, v]) => `${k} ${fmt(v)}`), `check/floor ${(med['memlint check'] / med.floor).toFixed(2)}x`, `cached/floor ${(med['check --cache, unchanged'] / med.floor).toFixed(2)}x ${(med['check --cache, 1 edited'] / med.floor).toFixed(2)}x ${(med['check --cache, 1 added'] / med.floor).toFixed(2)}x`];
  if (med['markdownlint-cli2']) line.push(`markdownlint-cli2/check ${(med['markdownlint-cli2'] / med['memlint check']).toFixed(1)}x`);
  line.push(`consolidate/check ${(med['memlint consolidate'] / med['memlint check']).toFixed(1)}x, RSS ${med['consolidate RSS MB']} MB`);
  console.log(line.join(' | '));
}
writeFileSync(join(OUT, 'check.json'), JSON.stringify(rows, null, 2));
console.log('\n| notes | node -e 0 | floor (list + read) | memlint check | check ÷ floor | markdownlint-cli2 | markdownlint ÷ check |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const m = r['markdownlint-cli2'];
  const cached = ['check --cache, unchanged', 'check --cache, 1 edited', 'check --cache, 1 added'].map((k) => `${fmt(r[k])} (${(r[k] / r.floor).toFixed(2)}×${m ? `, markdownlint ${(m / r[k]).toFixed(1)}×` : ''})`);
  cachedRows.push(`| ${r.notes.toLocaleString('en')} | ${fmt(r.floor)} | ${cached.join(' | ')} |`);
  console.log(`| ${r.notes.toLocaleString('en')} | ${fmt(r['node -e 0'])} | ${fmt(r.floor)} | ${fmt(r['memlint check'])} | ${(r['memlint check'] / r.floor).toFixed(2)}× | ${m ? fmt(m) : 'not run'} | ${m ? `${(m / r['memlint check']).toFixed(1)}×` : '—'} |`);
}
console.log('\n`check --cache` (÷ floor; markdownlint-cli2 ÷ it):\n');
console.log('| notes | floor | unchanged | 1 note edited | 1 note added |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const line of cachedRows) console.log(line);
console.log('\n| notes | memlint consolidate | consolidate ÷ check | peak RSS | growth exponent vs previous size |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
rows.forEach((r, i) => {
  const prev = rows[i - 1];
  const k = prev ? (Math.log(r['memlint consolidate'] / prev['memlint consolidate']) / Math.log(r.notes / prev.notes)).toFixed(2) : '—';
  console.log(`| ${r.notes.toLocaleString('en')} | ${fmt(r['memlint consolidate'])} | ${(r['memlint consolidate'] / r['memlint check']).toFixed(1)}× | ${r['consolidate RSS MB'] ?? '?'} MB | ${k} |`);
});
