#!/usr/bin/env node
/**
 * Issue 12's evaluation from the command line: `node scripts/similarity/eval.mjs tune|test [--list]`.
 * Compiles the sources and test/eval/evaluate.ts with tsc (into node_modules/.cache) and prints the harness's table for
 * one half of the committed split; --list prints every contradiction/consistent outcome of that half.
 * Design on tune; test is reported, never looked at pair by pair while designing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const half = process.argv[2] ?? 'tune';
if (half !== 'tune' && half !== 'test') {
  console.error('usage: eval.mjs tune|test [--list]');
  process.exit(2);
}
const outDir = join(process.cwd(), 'node_modules', '.cache', 'memlint-eval');
execFileSync(
  process.execPath,
  [
    'node_modules/typescript/bin/tsc',
    '-p',
    'tsconfig.json',
    '--noEmit',
    'false',
    '--outDir',
    outDir,
    '--declaration',
    'false',
    '--sourceMap',
    'false',
    '--incremental',
    'false',
  ],
  { stdio: 'inherit' },
);
const out = join(outDir, 'test', 'eval', 'evaluate.js');
const m = await import(pathToFileURL(out).href);
const split = m.readSplit();
const scratch = mkdtempSync(join(tmpdir(), 'memlint-eval-scratch-'));
const t0 = performance.now();
const outcomes = m
  .loadPairs()
  .filter((p) => split[p.id] === half)
  .map((p) => m.evaluatePair(p, scratch));
const ms = performance.now() - t0;
if (process.argv.includes('--list')) {
  for (const o of outcomes) {
    if (!['contradiction', 'consistent', 'unrelated-same-topic'].includes(o.pair.category)) continue;
    const ok = (o.pair.category === 'contradiction') === (o.conflict !== null);
    console.log(
      `${ok ? 'ok ' : 'BAD'} ${o.pair.id} ${o.pair.category} ${o.pair.lang} ${o.pair.subtype} :: ${o.conflict ?? '-'}`,
    );
  }
}
console.log(`${half} half, ${outcomes.length} pairs, ${ms.toFixed(0)} ms`);
console.log(m.table(outcomes));
