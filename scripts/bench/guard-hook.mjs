// guard --claude-hook as Claude Code calls it: a cold process per PreToolUse `Write` payload (the same light
// edit of an indexed note at a new path as scripts/bench/guard.mjs), interleaved with `node -e 0`, CPU medians
// (user + system from /usr/bin/time). Run scripts/bench/guard.mjs (with --base) first: it makes the vaults and,
// for --base, each build's own copy (bench-out/vault-…-base) with its caches warm.
// Usage: node scripts/bench/guard-hook.mjs [--runs 9] [--base DIR] [--vaults vault-1000,vault-hard-1000,…]
import { spawnSync } from 'node:child_process';
import { benchEnv } from './child-env.mjs';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { indexedNote } from './generate.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, base: { type: 'string' }, vaults: { type: 'string' } },
});
const runs = Number(values.runs ?? 9);
const vaults = (values.vaults ?? 'vault-1000,vault-hard-1000,vault-10000,vault-hard-10000').split(',');
const out = resolve('bench-out');
const cpu = (args, input) => {
  const r = spawnSync('/usr/bin/time', ['-f', '@cpu %U %S', process.execPath, ...args], {
    input,
    stdio: ['pipe', 'ignore', 'pipe'],
    env: benchEnv,
  });
  const m = /@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr.toString());
  if (!m) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return Math.round((Number(m[1]) + Number(m[2])) * 1000);
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`guard --claude-hook, Write payload, ${runs} interleaved runs, CPU medians (user + system)`);
console.log(`| vault | node -e 0 | hook | ÷ |${values.base ? ' hook [base] | ÷ |' : ''}`);
console.log(`| --- | ---: | ---: | ---: |${values.base ? ' ---: | ---: |' : ''}`);
for (const v of vaults) {
  const dir = join(out, v);
  if (!existsSync(join(dir, 'MEMORY.md'))) {
    console.log(`| ${v} | (missing: run scripts/bench/guard.mjs) |`);
    continue;
  }
  const n = Number(/\d+/.exec(v)[0]);
  const sample = v.includes('hard')
    ? indexedNote(dir, 7)
    : n > 2000
      ? join(dir, 'topic-7', 'note-7.md')
      : join(dir, 'note-7.md');
  const draft = readFileSync(sample, 'utf8').replace(/^name: (.*)$/m, 'name: $1-again') + '\nAlso noted later.\n';
  const builds = {
    new: [resolve('dist', 'cli.js'), dir],
    ...(values.base ? { base: [join(resolve(values.base), 'cli.js'), `${dir}-base`] } : {}),
  };
  const tools = { 'node -e 0': [['-e', '0'], ''] };
  for (const [b, [cli, vault]] of Object.entries(builds)) {
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      cwd: vault,
      tool_input: { file_path: join(vault, 'new-hook-note.md'), content: draft },
    });
    tools[b] = [[cli, 'guard', '--claude-hook', vault], payload];
  }
  for (const [args, input] of Object.values(tools)) cpu(args, input); // caches warm
  const samples = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  for (let i = 0; i < runs; i++)
    for (const [k, [args, input]] of Object.entries(tools)) samples[k].push(cpu(args, input));
  const e0 = median(samples['node -e 0']);
  const cell = (k) => `${median(samples[k])} ms | ${(median(samples[k]) / e0).toFixed(2)}× |`;
  console.log(`| ${v} | ${e0} ms | ${cell('new')}${values.base ? ` ${cell('base')}` : ''}`);
}
