// Did-you-mean alone, in process. `save VAULT OUT.json`: the vault's notes (path, stem, name) and the targets of its
// missing wikilinks, in file order. `run OUT.json [LIB] [ANSWERS.json]`: `buildLookup` + `closest` of every target
// with that build (default this checkout's dist/lib); prints the CPU time, the counters with MEMLINT_COUNTERS=1,
// and a hash of the answers; writes them to ANSWERS.json if given (to compare two builds answer by answer).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [mode, a, b, c] = process.argv.slice(2);
if (mode === 'save' && a && b) {
  process.argv = [process.argv[0], process.argv[1], a];
  const { loadBenchVault } = await import('./in-process.mjs');
  const { vault } = await loadBenchVault('did-you-mean.mjs');
  const notes = vault.notes.map((f) => ({ path: f.path, stem: f.stem, name: f.meta.name }));
  const targets = [];
  for (const f of vault.files)
    for (const l of f.links) if (l.kind === 'wikilink' && l.resolution === 'missing') targets.push(l.target);
  writeFileSync(
    b,
    JSON.stringify({ notes, markdown: vault.files.map((f) => f.path), other: [...vault.otherFiles], targets }),
  );
  process.stdout.write(`${notes.length} notes, ${targets.length} missing wikilinks\n`);
} else if (mode === 'run' && a) {
  const lib = resolve(b ?? join(process.cwd(), 'dist', 'lib'));
  const { buildLookup, closest } = await import(join(lib, 'vault', 'resolve.js'));
  const { snapshot } = await import(join(lib, 'util', 'counters.js')).catch(() => ({}));
  const data = JSON.parse(readFileSync(a, 'utf8'));
  const t0 = process.cpuUsage();
  const lookup = buildLookup(data.notes, data.markdown, data.other);
  const answers = data.targets.map((t) => closest(t, lookup));
  const t1 = process.cpuUsage(t0);
  const hash = createHash('sha256').update(JSON.stringify(answers)).digest('hex').slice(0, 16);
  process.stdout.write(
    `${data.targets.length} targets, ${((t1.user + t1.system) / 1000).toFixed(0)} ms CPU, answers ${hash}\n`,
  );
  if (snapshot) process.stdout.write(`${JSON.stringify(snapshot())}\n`);
  if (c) writeFileSync(c, JSON.stringify(answers));
} else {
  process.stderr.write(
    'usage: node scripts/bench/did-you-mean.mjs save VAULT OUT.json | run OUT.json [LIB] [ANSWERS.json]\n',
  );
  process.exit(2);
}
