// npm run bench: side-by-side, in one run, interleaved; medians; ratios against the floor and peers.
// Every command on every shape: `old` (scripts/bench/generate.mjs generateVault: kind) and `hard`
// (generateHardVault: Zipf topics, long notes, a 9,000-line index, ~15% broken wikilinks).
// Usage: node scripts/bench.mjs [--shapes old,hard] [--sizes 1000,10000,100000] [--hard-sizes 1000,10000]
//        [--runs 5] [--no-peers] [--timeout 300] [--tools 'memlint check;guard (cache)']
// With GNU time on the machine, each run's CPU time (user + sys) is recorded too: on a machine loaded
// by other work, wall times stretch and CPU times much less; both are reported.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchEnv, strippedCaCerts } from './bench/child-env.mjs';
import { generate, indexedNote } from './bench/generate.mjs';

const { values } = parseArgs({
  options: {
    shapes: { type: 'string' },
    sizes: { type: 'string' },
    'hard-sizes': { type: 'string' },
    runs: { type: 'string' },
    'no-peers': { type: 'boolean' },
    timeout: { type: 'string' },
    tools: { type: 'string' },
  },
});
// --tools 'memlint check;guard (cache)' (separated by ;): time only these (node -e 0 and floor always run: every ratio needs them).
const only = values.tools ? new Set(['node -e 0', 'floor', ...values.tools.split(';').map((s) => s.trim())]) : null;
const shapes = (values.shapes ?? 'old,hard').split(',');
const sizesFor = {
  old: (values.sizes ?? '1000,10000,100000').split(',').map(Number),
  hard: (values['hard-sizes'] ?? values.sizes ?? '1000,10000').split(',').map(Number),
};
const runs = Number(values.runs ?? 5);
const timeoutMs = Number(values.timeout ?? 300) * 1000;
const OUT = 'bench-out';
mkdirSync(OUT, { recursive: true });
const node = process.execPath;
const cli = join(process.cwd(), 'dist', 'cli.js');
const mdlint = join(process.cwd(), 'node_modules', 'markdownlint-cli2', 'markdownlint-cli2-bin.mjs');

const childEnv = benchEnv;
if (strippedCaCerts)
  console.log('bench: NODE_EXTRA_CA_CERTS is unset for every timed process (it adds a constant to every node start).');
const gnuTime = existsSync('/usr/bin/time');
const cpu = {}; // tool → CPU ms of each run
/** Milliseconds of one cold process; Infinity when it ran past the timeout. Records its CPU time under `name`. */
function time(cmd, args, input, name) {
  const argv = gnuTime ? ['/usr/bin/time', ['-f', '@cpu %U %S', cmd, ...args]] : [cmd, args];
  const t = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv[1], {
    env: childEnv,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    maxBuffer: 1 << 28,
    timeout: timeoutMs,
    encoding: 'utf8',
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM') return Infinity;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /@cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  if (name && m) (cpu[name] ??= []).push((Number(m[1]) + Number(m[2])) * 1000);
  return ms;
}
/** Peak resident memory of one run, from GNU time when the machine has it. */
function peakRssMb(cmd, args) {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], {
    env: childEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: timeoutMs,
  });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms) =>
  ms === undefined
    ? '—'
    : ms === Infinity
      ? `> ${timeoutMs / 1000} s`
      : ms >= 1000
        ? `${(ms / 1000).toFixed(2)} s`
        : `${ms.toFixed(0)} ms`;
const x = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);

const rows = [];
for (const shape of shapes) {
  for (const n of sizesFor[shape]) {
    const dir = join(OUT, shape === 'old' ? `vault-${n}` : `vault-${shape}-${n}`);
    if (!existsSync(join(dir, 'MEMORY.md'))) generate(shape, dir, n);
    spawnSync(node, [cli, 'catalog', dir, '--write']);
    const edited =
      shape === 'old' ? join(dir, n > 2000 ? join('topic-3', 'note-3.md') : 'note-3.md') : indexedNote(dir, 3);
    const editedOriginal = readFileSync(edited);
    const added = join(dir, 'added-by-bench.md');
    // Guard's draft: a light edit of an existing note (one candidate read and checked).
    const draft = editedOriginal.toString('utf8').replace(/^name: (.*)$/m, 'name: $1-again') + '\nAlso noted later.\n';
    const guardArgs = [cli, 'guard', dir, '--path', 'new-note.md'];
    const tools = {
      'node -e 0': [node, ['-e', '0']],
      floor: [node, ['scripts/bench/floor.mjs', dir]],
      'memlint check': [node, [cli, 'check', dir, '--format', 'json']],
      // --cache as a pre-commit hook meets it: nothing changed; one note edited; one note added (the
      // vault's shape changes, so every link is resolved again). The edit and the new note are made
      // before the clock starts, a new one for every run (the added note is removed after its run and
      // the cache brought up to date, so that "unchanged" means unchanged).
      'check --cache, unchanged': [node, [cli, 'check', dir, '--format', 'json', '--cache']],
      'check --cache, 1 edited': [
        node,
        [cli, 'check', dir, '--format', 'json', '--cache'],
        () => appendFileSync(edited, `Edited ${Date.now()}.\n`),
      ],
      'check --cache, 1 added': [
        node,
        [cli, 'check', dir, '--format', 'json', '--cache'],
        () => writeFileSync(added, `---\nname: added-${Date.now()}\ndescription: d\ntype: user\n---\nNew.\n`),
        () => {
          rmSync(added);
          spawnSync(node, [cli, 'check', dir, '--cache'], { stdio: 'ignore' });
        },
      ],
      // guard right after the vault changed (the "1 edited" and "1 added" runs above): its caches are brought up
      // to date in the timed run, as an agent's next save meets them after it edited a note.
      'guard, after an edit': [node, guardArgs, undefined, undefined, draft],
      // guard with its caches up to date (an untimed guard call first): the issue's "with its cache".
      'guard (cache)': [
        node,
        guardArgs,
        () => spawnSync(node, guardArgs, { input: draft, env: childEnv }),
        undefined,
        draft,
      ],
      'memlint consolidate': [node, [cli, 'consolidate', dir, '--out', join(OUT, `proposal-${shape}-${n}.yaml`)]],
    };
    const peers = !values['no-peers'] && n <= 10000;
    if (peers) tools['markdownlint-cli2'] = [node, [mdlint, `${dir}/**/*.md`]];
    if (only) for (const k of Object.keys(tools)) if (!only.has(k)) delete tools[k];
    for (const k of Object.keys(cpu)) delete cpu[k];
    const samples = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
    const r = n >= 100000 ? Math.min(runs, 3) : runs;
    // Slow tools get fewer runs: markdownlint 3; consolidate 3, 1 at 100k or on the hard shape at 10k.
    const cap = {
      'markdownlint-cli2': 3,
      'memlint consolidate': n >= 100000 || (shape !== 'old' && n >= 10000) ? 1 : 3,
    };
    rmSync(join(dir, '.memlint', 'cache'), { recursive: true, force: true });
    for (const [name, [cmd, args, , , input]] of Object.entries(tools)) if (!(name in cap)) time(cmd, args, input); // warm the page cache, build the caches
    for (let i = 0; i < r; i++) {
      for (const [name, [cmd, args, before, after, input]] of Object.entries(tools)) {
        if (name in cap && i >= Math.min(r, cap[name])) continue;
        if (name in cap && samples[name].includes(Infinity)) continue;
        before?.();
        samples[name].push(time(cmd, args, input, name));
        after?.();
      }
    }
    writeFileSync(edited, editedOriginal);
    const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.length ? median(v) : undefined]));
    med['consolidate RSS MB'] =
      !tools['memlint consolidate'] || med['memlint consolidate'] === Infinity
        ? null
        : peakRssMb(node, tools['memlint consolidate'][1]);
    const cpuMed = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
    rows.push({ shape, notes: n, runs: r, ...med, cpu: cpuMed });
    console.log(
      `${shape} ${n} wall: ` +
        Object.entries(med)
          .filter(([k]) => !k.includes('RSS'))
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(' | '),
    );
    if (Object.keys(cpuMed).length)
      console.log(
        `${shape} ${n} cpu:  ` +
          Object.entries(cpuMed)
            .map(([k, v]) => `${k} ${fmt(v)}`)
            .join(' | '),
      );
  }
}
writeFileSync(join(OUT, 'bench.json'), JSON.stringify(rows, null, 2));
const n = (r) => r.notes.toLocaleString('en');
console.log('\n`memlint check`, cold (÷ floor; markdownlint-cli2 ÷ check):\n');
console.log(
  '| shape | notes | node -e 0 | floor (list + read) | memlint check | check ÷ floor | markdownlint-cli2 | markdownlint ÷ check |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.shape} | ${n(r)} | ${fmt(r['node -e 0'])} | ${fmt(r.floor)} | ${fmt(r['memlint check'])} | ${x(r['memlint check'], r.floor)} | ${r['markdownlint-cli2'] ? fmt(r['markdownlint-cli2']) : 'not run'} | ${x(r['markdownlint-cli2'], r['memlint check'])} |`,
  );
console.log('\n`check --cache` (÷ floor; markdownlint-cli2 ÷ it):\n');
console.log('| shape | notes | floor | unchanged | 1 note edited | 1 note added |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const m = r['markdownlint-cli2'];
  const cached = ['check --cache, unchanged', 'check --cache, 1 edited', 'check --cache, 1 added'].map(
    (k) => `${fmt(r[k])} (${x(r[k], r.floor)}${m ? `; markdownlint ${x(m, r[k])}` : ''})`,
  );
  console.log(`| ${r.shape} | ${n(r)} | ${fmt(r.floor)} | ${cached.join(' | ')} |`);
}
console.log('\n`memlint guard` (÷ `node -e 0`): caches up to date; and right after a note was edited and one added:\n');
console.log('| shape | notes | node -e 0 | guard (cache) | ÷ node -e 0 | guard, after an edit | ÷ node -e 0 |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.shape} | ${n(r)} | ${fmt(r['node -e 0'])} | ${fmt(r['guard (cache)'])} | ${x(r['guard (cache)'], r['node -e 0'])} | ${fmt(r['guard, after an edit'])} | ${x(r['guard, after an edit'], r['node -e 0'])} |`,
  );
console.log('\n`memlint consolidate` (÷ floor; growth exponent vs the previous size of the same shape):\n');
console.log('| shape | notes | memlint consolidate | ÷ floor | ÷ check | peak RSS | growth exponent |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
rows.forEach((r, i) => {
  const prev = rows[i - 1]?.shape === r.shape ? rows[i - 1] : null;
  const k = prev
    ? (Math.log(r['memlint consolidate'] / prev['memlint consolidate']) / Math.log(r.notes / prev.notes)).toFixed(2)
    : '—';
  console.log(
    `| ${r.shape} | ${n(r)} | ${fmt(r['memlint consolidate'])} | ${x(r['memlint consolidate'], r.floor)} | ${x(r['memlint consolidate'], r['memlint check'])} | ${r['consolidate RSS MB'] ?? '?'} MB | ${k} |`,
  );
});
if (rows.some((r) => Object.keys(r.cpu).length)) {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.cpu)))];
  console.log("\nCPU time (user + sys, medians; ÷ the floor's CPU time):\n");
  console.log(`| shape | notes | ${names.join(' | ')} |`);
  console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} |`);
  for (const r of rows)
    console.log(
      `| ${r.shape} | ${n(r)} | ${names.map((k) => (r.cpu[k] === undefined ? '—' : `${fmt(r.cpu[k])} (${x(r.cpu[k], r.cpu.floor)})`)).join(' | ')} |`,
    );
}
