#!/usr/bin/env node
// Proves "behaviour unchanged": the check JSON and the consolidate proposal JSON of every corpus vault,
// byte for byte, before and after a change.
//
//   node scripts/same-output.mjs save <dir> [extra-vault ...]     record the outputs of dist/cli.js into <dir>
//   node scripts/same-output.mjs compare <dir> [extra-vault ...]  recompute; per vault identical/different; exit 1 on any difference
//   --only=check | --only=consolidate                              either mode, one command only (check alone takes seconds;
//                                                                   consolidate of the big vaults is most of the time)
//
// Vaults: every folder in ../shared/corpus/claude and ../shared/corpus/hermes (as test/helpers/corpus.ts finds
// them), fixtures/demo-vault, and any extra vault folders given after <dir>. Run `npm run build` first: this
// measures dist/cli.js, the thing users run.
//
// Per vault it records `memlint check VAULT --format json` and `memlint consolidate VAULT --format json`
// (stdout, stderr and exit code of each). Both are read-only: the JSON proposal goes to stdout, nothing is
// written into the vault (the script also verifies that: a listing of path/size/mtime of every corpus file is
// taken before and after, and any change is an error).
//
// Normalised before comparing (fields that legitimately change from run to run):
//   - consolidate `createdAt` (the wall-clock time of the run) → "<createdAt>";
//   - the absolute path of the corpus → <corpus> and of this checkout → <repo> (so a baseline saved from one
//     checkout, e.g. main, compares with another worktree).
// Nothing else is stripped. Provenance (`modified`, `origin`) comes from git when the vault is in a git checkout
// (fixtures/demo-vault is): save and compare from git checkouts, not from a plain copy of the tree. Note that `ageDays` in proposal items is computed from file mtimes and the current
// time, so a save and a compare more than a day apart can differ there; re-save the baseline on the same day.
//
// Env: SAME_OUTPUT_JOBS (default: number of CPUs, at least 2) = child processes in parallel.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli.js');
const corpus = resolve(repo, '..', 'shared', 'corpus');
const argv = process.argv.slice(2);
const onlyArg = argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length) : undefined;
const [mode, outDir, ...extra] = argv.filter((a) => a !== onlyArg);

function usage(msg) {
  if (msg) process.stderr.write(`same-output: ${msg}\n`);
  process.stderr.write('usage: node scripts/same-output.mjs save|compare <dir> [extra-vault ...]\n');
  process.exit(2);
}
if (mode !== 'save' && mode !== 'compare') usage(mode ? `unknown mode ${mode}` : undefined);
if (!outDir) usage('no <dir>');
if (only !== undefined && only !== 'check' && only !== 'consolidate') usage(`--only=${only}: check or consolidate`);
const commands = only ? [only] : ['check', 'consolidate'];
if (!existsSync(cli)) usage(`${relative(process.cwd(), cli)} is missing: run npm run build first`);
if (!existsSync(corpus)) usage(`no corpus at ${corpus}`);

/** [label, absolute folder]; the label is the file name stem in <dir>. */
const vaults = [];
for (const kind of ['claude', 'hermes']) {
  for (const d of readdirSync(join(corpus, kind)).sort()) vaults.push([`${kind}__${d}`, join(corpus, kind, d)]);
}
vaults.push(['demo-vault', join(repo, 'fixtures', 'demo-vault')]);
for (const e of extra) {
  const abs = resolve(e);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) usage(`${e}: not a folder`);
  vaults.push([`extra__${abs.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+/, '')}`, abs]);
}

function listing(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p, { throwIfNoEntry: false });
        out.push(`${p}\t${s?.size}\t${s?.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort().join('\n');
}

function runCli(args) {
  return new Promise((res) => {
    // Fixed cwd and a CI-like env (no progress lines, no colours) so the output depends only on the code and the vault.
    const env = { ...process.env, CI: 'true', NO_COLOR: '1', MEMLINT_TIMING: '', MEMLINT_COUNTERS: '' };
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: repo, env, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : String(err.code ?? err.signal)) : 0;
        res({ code, stdout, stderr });
      },
    );
  });
}

const normalise = {
  check: (s) => s,
  consolidate: (s) => s.replace(/^( {2}"createdAt": )"[^"]*"/m, '$1"<createdAt>"'),
};

const paths = (s) => s.split(corpus).join('<corpus>').split(repo).join('<repo>');
function record(cmd, r) {
  return paths(`exit: ${r.code}\n--- stderr\n${r.stderr}--- stdout\n${normalise[cmd](r.stdout)}`);
}

const jobs = [];
for (const [label, dir] of vaults) {
  for (const cmd of commands)
    jobs.push({ label, file: `${label}.${cmd}.txt`, args: [cmd, dir, '--format', 'json'], cmd });
}
// Slowest first (consolidate of the biggest vaults) so the parallel pool ends together.
const size = new Map(vaults.map(([l, d]) => [l, listing(d).split('\n').length]));
jobs.sort((a, b) => (b.cmd === 'consolidate') - (a.cmd === 'consolidate') || size.get(b.label) - size.get(a.label));

const before = listing(corpus);
const started = performance.now();
const results = new Map();
const took = [];
const width = Math.max(2, Number(process.env.SAME_OUTPUT_JOBS) || availableParallelism());
let next = 0;
await Promise.all(
  Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const t0 = performance.now();
      results.set(job.file, record(job.cmd, await runCli(job.args)));
      took.push([performance.now() - t0, job.file]);
    }
  }),
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const slowest = took
  .sort((a, b) => b[0] - a[0])
  .slice(0, 3)
  .map(([ms, f]) => `${f} ${(ms / 1000).toFixed(1)}s`)
  .join(', ');
if (listing(corpus) !== before) {
  process.stderr.write(
    `same-output: the corpus changed on disk during the run (${corpus}); a read-only command wrote into it\n`,
  );
  process.exit(2);
}

if (mode === 'save') {
  mkdirSync(outDir, { recursive: true });
  for (const job of jobs) writeFileSync(join(outDir, job.file), results.get(job.file));
  writeFileSync(join(outDir, 'vaults.tsv'), `${vaults.map(([l, d]) => `${l}\t${d}`).join('\n')}\n`);
  process.stdout.write(
    `same-output: saved ${jobs.length} outputs of ${vaults.length} vaults to ${outDir} (${seconds}s, ${width} jobs; slowest: ${slowest})\n`,
  );
  process.exit(0);
}

let different = 0;
const lines = [];
for (const [label] of vaults) {
  const parts = [];
  for (const cmd of commands) {
    const file = `${label}.${cmd}.txt`;
    const saved = join(outDir, file);
    const now = results.get(file);
    if (!existsSync(saved)) {
      parts.push(`${cmd}: no saved output (${file})`);
      continue;
    }
    const was = readFileSync(saved, 'utf8');
    if (was === now) continue;
    const patch = createTwoFilesPatch(`saved/${file}`, `now/${file}`, was, now, '', '', { context: 2 })
      .split('\n')
      .slice(2);
    const shown = patch.slice(0, 40);
    parts.push(
      `${cmd}: different\n${shown.map((l) => `    ${l}`).join('\n')}${patch.length > shown.length ? `\n    … ${patch.length - shown.length} more diff lines` : ''}`,
    );
  }
  if (parts.length) {
    different++;
    lines.push(`DIFFERENT  ${label}\n  ${parts.join('\n  ')}`);
  } else lines.push(`identical  ${label}`);
}
const savedLabels = existsSync(join(outDir, 'vaults.tsv'))
  ? readFileSync(join(outDir, 'vaults.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0])
  : [];
const missing = savedLabels.filter((l) => !vaults.some(([v]) => v === l));
for (const l of missing) lines.push(`MISSING    ${l} (saved, but not found now)`);
process.stdout.write(`${lines.join('\n')}\n`);
const bad = different + missing.length;
process.stdout.write(
  `same-output: ${vaults.length - different}/${vaults.length} vaults identical${missing.length ? `, ${missing.length} saved vaults missing` : ''} (${commands.join(' + ')}; ${seconds}s, ${width} jobs; slowest: ${slowest}; outputs in ${basename(resolve(outDir))})\n`,
);
process.exit(bad ? 1 : 0);
