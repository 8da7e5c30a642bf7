#!/usr/bin/env node
// memlint's security/secret rule beside secretlint (@secretlint/core + preset-recommend) on the
// same samples (test/data/secret-samples.ts): recall per provider, false positives on the
// negatives, and time per 10k synthetic notes (scripts/bench/generate.mjs) with secretlint run only
// on notes that pass memlint's cheap prefilter. Usage: node scripts/bench/secretlint-compare.mjs
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng, noteText } from './generate.mjs';

const root = new URL('../..', import.meta.url).pathname;
const out = mkdtempSync(join(root, 'node_modules', '.memlint-secretlint-'));
const entry = join(out, 'entry.ts');
await import('node:fs').then((fs) =>
  fs.writeFileSync(
    entry,
    `
export { SECRET_POSITIVES, SECRET_NEGATIVES } from ${JSON.stringify(join(root, 'test/data/secret-samples.ts'))};
export { default as secretRule, SECRET_PREFILTER } from ${JSON.stringify(join(root, 'src/rules/security/secret.ts'))};
export { runRules } from ${JSON.stringify(join(root, 'src/rules/engine.ts'))};
export { vaultFromText } from ${JSON.stringify(join(root, 'src/vault/from-text.ts'))};
export { DEFAULT_CONFIG } from ${JSON.stringify(join(root, 'src/config/defaults.ts'))};
`,
  ),
);
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: join(out, 'entry.mjs'),
  logLevel: 'error',
  packages: 'external',
  absWorkingDir: root,
});
const m = await import(pathToFileURL(join(out, 'entry.mjs')).href);
const { lintSource } = await import('@secretlint/core');
const { creator: preset } = await import('@secretlint/secretlint-rule-preset-recommend');
const slConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset }] };

const config = { ...m.DEFAULT_CONFIG, reviewed: [] };
const ours = (texts) => {
  const vault = m.vaultFromText(
    '/bench',
    config,
    texts.map((text, i) => ({ path: `n${i}.md`, text })),
  );
  const files = new Set(m.runRules(vault, [m.secretRule]).findings.map((f) => f.file));
  return texts.map((_, i) => files.has(`n${i}.md`));
};
const theirs = async (text) =>
  (
    await lintSource({
      source: { content: text, filePath: '/note.md', ext: '.md', contentType: 'text' },
      options: { config: slConfig, noPhysicFilePath: true },
    })
  ).messages.length > 0;

const rows = new Map();
const oursPos = ours(m.SECRET_POSITIVES.map((s) => s.text));
for (const [i, s] of m.SECRET_POSITIVES.entries()) {
  const r = rows.get(s.provider) ?? { n: 0, ours: 0, theirs: 0 };
  r.n++;
  if (oursPos[i]) r.ours++;
  if (await theirs(s.text)) r.theirs++;
  rows.set(s.provider, r);
}
console.log('| provider | samples | memlint | secretlint |\n| --- | ---: | ---: | ---: |');
let tn = 0,
  to = 0,
  tt = 0;
for (const [p, r] of rows) {
  console.log(`| ${p} | ${r.n} | ${r.ours} | ${r.theirs} |`);
  tn += r.n;
  to += r.ours;
  tt += r.theirs;
}
console.log(`| all | ${tn} | ${to} (${((to / tn) * 100).toFixed(1)}%) | ${tt} (${((tt / tn) * 100).toFixed(1)}%) |`);
const oursNeg = ours(m.SECRET_NEGATIVES.map((s) => s.text));
let fo = 0,
  ft = 0;
for (const [i, s] of m.SECRET_NEGATIVES.entries()) {
  if (oursNeg[i]) fo++;
  if (await theirs(s.text)) ft++;
}
console.log(
  `negatives flagged: memlint ${fo}/${m.SECRET_NEGATIVES.length}, secretlint ${ft}/${m.SECRET_NEGATIVES.length}`,
);

// Time at 10k notes, interleaved runs.
const r = rng(42);
const notes = Array.from({ length: 10_000 }, (_, i) => noteText(r, i, 10_000));
const passing = notes.filter((t) => m.SECRET_PREFILTER.test(t));
const times = { ours: [], theirs: [] };
for (let run = 0; run < 3; run++) {
  let t0 = performance.now();
  ours(notes);
  times.ours.push(performance.now() - t0);
  t0 = performance.now();
  for (const t of passing) await theirs(t);
  times.theirs.push(performance.now() - t0);
}
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(0);
console.log(
  `10k notes: ${passing.length} pass the prefilter; memlint secret rule (vault build included) ${med(times.ours)} ms, secretlint on the prefiltered notes ${med(times.theirs)} ms (median of 3 interleaved runs)`,
);
rmSync(out, { recursive: true, force: true });
