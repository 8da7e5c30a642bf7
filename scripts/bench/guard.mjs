// Guard as agents call it: a cold process per draft, side by side with `node -e 0`, interleaved,
// medians of wall time and of CPU time (user + system, from /usr/bin/time when there is one: on a
// shared machine wall time is mostly waiting). With the signature cache at 1k and 10k notes, and
// without it at 10k; a note write (a light edit of an indexed note, at a new path) and an index
// write (MEMORY.md minus one linked line).
// Usage: node scripts/bench/guard.mjs [--runs 15] [--shape old|hard] [--sizes 1000,10000] [--base DIR]
// --base DIR: also time another build's CLI (DIR/cli.js, e.g. a copy of an older dist/ kept in
// bench-out/), interleaved with this one, on its own copy of each vault (each build keeps its own caches).
import { spawnSync } from 'node:child_process';
import { benchEnv } from './child-env.mjs';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, indexedNote } from './generate.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, shape: { type: 'string' }, sizes: { type: 'string' }, base: { type: 'string' } },
});
const shape = values.shape ?? 'old';
const runs = Number(values.runs ?? 15);
const sizes = (values.sizes ?? '1000,10000').split(',').map(Number);
const node = process.execPath;
const builds = {
  new: join(process.cwd(), 'dist', 'cli.js'),
  ...(values.base ? { base: join(resolve(values.base), 'cli.js') } : {}),
};
const out = 'bench-out';
mkdirSync(out, { recursive: true });
const noCache = join(out, 'guard-nocache.json');
writeFileSync(noCache, JSON.stringify({ guard: { cache: false } }));
const timer = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Wall ms and CPU ms (user + system; NaN without /usr/bin/time) of one process. */
function time(args, input) {
  const t = process.hrtime.bigint();
  const r = timer
    ? spawnSync(timer, ['-f', '@cpu %U %S', node, ...args], { input, stdio: ['pipe', 'ignore', 'pipe'], env: benchEnv })
    : spawnSync(node, args, { input, stdio: ['pipe', 'ignore', 'pipe'], env: benchEnv });
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const err = r.stderr.toString();
  const status = timer ? Number(/exit status (\d+)/.exec(err)?.[1] ?? 0) : r.status;
  // Exit 1 is a refusal, but also how Node ends on an uncaught error: a stack trace in stderr is a crash, not a time.
  if ((status !== 0 && status !== 1) || /\n\s+at /.test(err)) throw new Error(`${args.join(' ')}: ${err}`);
  const m = /@cpu ([\d.]+) ([\d.]+)/.exec(err);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const n of sizes) {
  const dir = join(out, shape === 'old' ? `vault-${n}` : `vault-${shape}-${n}`);
  if (!existsSync(join(dir, 'MEMORY.md'))) generate(shape, dir, n);
  const sample =
    shape === 'old' ? (n > 2000 ? join(dir, 'topic-7', 'note-7.md') : join(dir, 'note-7.md')) : indexedNote(dir, 7);
  const draft = readFileSync(sample, 'utf8').replace(/^name: (.*)$/m, 'name: $1-again') + '\nAlso noted later.\n';
  // An index write that removes one linked line: reachability from the cache's links (issue 18).
  const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8').split('\n');
  const drop = index.findIndex((l, i) => i > 5 && /\]\(/.test(l));
  const indexDraft = index.filter((_, i) => i !== drop).join('\n');
  const tools = { 'node -e 0': [['-e', '0'], draft] };
  for (const [b, cli] of Object.entries(builds)) {
    // Each build on its own copy: caches are keyed by the build, and two builds would rewrite each other's.
    const vault = b === 'new' ? dir : `${dir}-${b}`;
    if (b !== 'new') {
      rmSync(vault, { recursive: true, force: true });
      cpSync(dir, vault, { recursive: true, preserveTimestamps: true });
    }
    rmSync(join(vault, '.memlint', 'cache'), { recursive: true, force: true });
    time([cli, 'guard', vault, '--path', 'new-note.md'], draft); // builds the caches
    const tag = b === 'new' ? '' : ` [${b}]`;
    tools[`note${tag}`] = [[cli, 'guard', vault, '--path', 'new-note.md'], draft];
    tools[`index${tag}`] = [[cli, 'guard', vault, '--path', 'MEMORY.md'], indexDraft];
    if (n >= 10000)
      tools[`no cache${tag}`] = [[cli, 'guard', vault, '--path', 'new-note.md', '--config', noCache], draft];
  }
  const samples = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  for (let i = 0; i < runs; i++)
    for (const [k, [args, input]] of Object.entries(tools)) samples[k].push(time(args, input));
  const med = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [
      k,
      { wall: median(v.map((x) => x.wall)), cpu: median(v.map((x) => x.cpu)) },
    ]),
  );
  rows.push({ notes: n, med });
}
const ms = (x) => (Number.isNaN(x) ? '—' : `${x.toFixed(0)} ms`);
const ratio = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? '—' : `${(x / y).toFixed(2)}×`);
console.log(`shape ${shape}, ${runs} interleaved runs, medians; CPU = user + system`);
console.log(
  '| build | notes | node -e 0 CPU | note write CPU | ÷ | index write CPU | ÷ | no cache CPU | node -e 0 wall | note write wall | ÷ | index write wall | ÷ |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const e0 = r.med['node -e 0'];
  for (const b of Object.keys(builds)) {
    const tag = b === 'new' ? '' : ` [${b}]`;
    const note = r.med[`note${tag}`],
      index = r.med[`index${tag}`],
      none = r.med[`no cache${tag}`];
    console.log(
      `| ${b} | ${r.notes.toLocaleString('en')} | ${ms(e0.cpu)} | ${ms(note.cpu)} | ${ratio(note.cpu, e0.cpu)} | ${ms(index.cpu)} | ${ratio(index.cpu, e0.cpu)} | ${none ? ms(none.cpu) : '—'} | ${ms(e0.wall)} | ${ms(note.wall)} | ${ratio(note.wall, e0.wall)} | ${ms(index.wall)} | ${ratio(index.wall, e0.wall)} |`,
    );
  }
}
