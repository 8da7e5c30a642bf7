#!/usr/bin/env node
/**
 * Precision per item kind from a labelled file (rows { vault, id, kind, notes, label: useful|noise }):
 *
 *   node scripts/proposal-precision.mjs LABELS.json                 # per kind, as labelled
 *   node scripts/proposal-precision.mjs LABELS.json DUMP/items.json # per kind and status (proposed / info)
 *
 * With a dump (scripts/proposal-dump.mjs), each label is matched to the dump's item by vault, kind
 * and the notes it names (ids change between builds): a label whose item the build no longer emits
 * counts as "gone". Labels written on the dump itself (items.json filled in) carry their own status.
 */
import { readFileSync } from 'node:fs';

const [labelsFile, dumpFile] = process.argv.slice(2);
if (!labelsFile) {
  console.error('usage: proposal-precision.mjs LABELS.json [DUMP/items.json]');
  process.exit(2);
}
const labels = JSON.parse(readFileSync(labelsFile, 'utf8')).filter((r) => r.label === 'useful' || r.label === 'noise');
const key = (r) => `${r.vault}\t${r.kind}\t${[...r.notes].sort().join('|')}`;
const status = new Map();
if (dumpFile) for (const r of JSON.parse(readFileSync(dumpFile, 'utf8'))) status.set(key(r), r.status);
const table = new Map();
for (const r of labels) {
  const s = r.status ?? (dumpFile ? (status.get(key(r)) ?? 'gone') : 'labelled');
  const k = `${r.kind}\t${s}`;
  const t = table.get(k) ?? { useful: 0, n: 0 };
  t.n++;
  if (r.label === 'useful') t.useful++;
  table.set(k, t);
}
console.log('| kind | status | labelled | useful | precision |\n|---|---|---:|---:|---:|');
for (const [k, t] of [...table].sort()) {
  const [kind, s] = k.split('\t');
  console.log(`| ${kind} | ${s} | ${t.n} | ${t.useful} | ${(t.useful / t.n).toFixed(2)} |`);
}
