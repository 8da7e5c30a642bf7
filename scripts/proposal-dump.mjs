#!/usr/bin/env node
/**
 * Dump consolidate's items, per kind, for every corpus vault (and the demo), into one file a person
 * can label without reading memlint's code: what each item proposes, the notes it names (paths to
 * open), its evidence, and an empty label line (useful / noise + a one-line reason).
 *
 *   npm run build && node scripts/proposal-dump.mjs [--corpus DIR] [--out DIR] [--only SUBSTRING] [--propose KIND,KIND]
 *
 * --propose writes `consolidate.propose.<kind>: true` into each copy's memlint.config.json (when the vault
 * has none), so kinds that are info by default show as they would be proposed (status `proposed`; items a
 * stage itself holds back stay `info`, with the stage's reason).
 *
 * Defaults: corpus ../shared/corpus beside the worktree, out /tmp/proposal-dump. Each vault is
 * copied to OUT/vaults/<kind>/<name> first (consolidate is read-only, the copy makes that moot) and
 * consolidated with `node dist/cli.js consolidate COPY --format json`. Writes:
 *   OUT/items.md    the reading file, grouped by kind, then vault (proposed items, then info items)
 *   OUT/items.json  the same items as rows { vault, id, kind, status, notes, label: null, reason: null },
 *                   the shape of test/data/proposal-precision.json
 *   OUT/raw/<vault>.json  consolidate's own output
 * Deterministic for a given build and corpus (items sorted by kind, vault, id; no clock in the text).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const corpus = resolve(opt('--corpus', join(repo, '..', '..', 'shared', 'corpus')));
const out = resolve(opt('--out', '/tmp/proposal-dump'));
const only = opt('--only', '');
const propose = opt('--propose', '').split(',').filter(Boolean);
const cli = join(repo, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('proposal-dump: run `npm run build` first (dist/cli.js is missing)');
  process.exit(2);
}
if (!existsSync(corpus)) {
  console.error(`proposal-dump: no corpus at ${corpus} (pass --corpus DIR)`);
  process.exit(2);
}

const vaults = [];
for (const kind of ['claude', 'hermes']) {
  const dir = join(corpus, kind);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) vaults.push({ label: `${kind}/${name}`, src: join(dir, name) });
}
const demo = join(repo, 'fixtures', 'demo-vault');
if (existsSync(demo)) vaults.push({ label: 'demo-vault', src: demo });

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'raw'), { recursive: true });
const rows = [];
for (const v of vaults.filter((x) => x.label.includes(only))) {
  const copy = join(out, 'vaults', v.label);
  cpSync(v.src, copy, { recursive: true, filter: (p) => !p.split('/').includes('.memlint') });
  const config = join(copy, 'memlint.config.json');
  if (propose.length && !existsSync(config))
    writeFileSync(
      config,
      `${JSON.stringify({ consolidate: { propose: Object.fromEntries(propose.map((k) => [k, true])) } })}\n`,
    );
  const t0 = Date.now();
  let proposal;
  try {
    proposal = JSON.parse(
      execFileSync('node', [cli, 'consolidate', copy, '--format', 'json'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  } catch (e) {
    console.error(`${v.label}: consolidate failed: ${String(e.stderr ?? e.message).split('\n')[0]}`);
    continue;
  }
  writeFileSync(join(out, 'raw', `${v.label.replace(/\//g, '__')}.json`), `${JSON.stringify(proposal, null, 2)}\n`);
  const items = [
    ...proposal.items.map((i) => ({ ...i, status: 'proposed' })),
    ...(proposal.info ?? []).map((i) => ({ ...i, status: 'info' })),
  ];
  for (const i of items) rows.push({ vault: v.label, copy, item: i });
  console.error(
    `${v.label}: ${proposal.items.length} proposed, ${(proposal.info ?? []).length} info (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
rows.sort(
  (a, b) =>
    cmp(a.item.kind, b.item.kind) ||
    cmp(a.vault, b.vault) ||
    cmp(a.item.status, b.item.status) ||
    cmp(a.item.id, b.item.id),
);

const clip = (s, n = 300) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const show = (v) => clip(typeof v === 'string' ? v : JSON.stringify(v));
function actionText(a) {
  if (!a) return '(info: nothing would be applied)';
  switch (a.type) {
    case 'merge':
      return `merge ${a.retire.join(', ')} into ${a.into} (the merged notes are retired)`;
    case 'retire':
      return `retire ${a.retire.join(', ')} (moved to the holding folder; undo restores)`;
    case 'relink':
      return `in ${a.file}, relink ${a.from} -> ${a.to}`;
    case 'fix-index':
      return [
        `in ${a.file}:`,
        ...a.remove.map((r) => `  remove line ${r.line}: ${r.text}`),
        ...a.add.map((l) => `  add: ${l}`),
        ...(a.replace ?? []).map((r) => `  line ${r.line}: ${r.text}\n      becomes: ${r.with}`),
      ].join('\n');
    case 'split-index':
      return [
        `in ${a.file}, move ${a.moves.length} section(s) byte for byte into new notes:`,
        ...a.moves.map(
          (m) =>
            `  lines ${m.from}-${m.from + m.lines.length - 1} (${m.lines.length}) -> ${m.note}${m.pointer ? `; pointer left: ${m.pointer}` : ''}`,
        ),
      ].join('\n');
    case 'keep':
      return 'keep (nothing changes; the item asks a person to look)';
    default:
      return JSON.stringify(a);
  }
}

const md = [
  '# consolidate items for labelling',
  '',
  `Corpus: ${corpus}. Vault copies (open the notes here): ${join(out, 'vaults')}.`,
  'For each item: open the notes it names, decide whether a careful owner would act on it as proposed (or after a small change): `useful`, else `noise`, with a one-line reason.',
  '`proposed` items can be approved and applied; `info` items are shown to the person but cannot be approved (their kind measured below 0.8 precision). Label both.',
  '',
];
let kind = '';
for (const { vault, copy, item } of rows) {
  if (item.kind !== kind) {
    kind = item.kind;
    md.push(`## ${kind} (${rows.filter((r) => r.item.kind === kind).length} items)`, '');
  }
  md.push(
    `### ${vault} ${item.id} [${item.status}]`,
    '',
    `notes: ${item.notes.map((n) => `${join(copy, n.path)}${n.entry ? ` (entry ${n.entry})` : ''}`).join('  ')}`,
    '',
    `suggestion: ${item.suggestion}`,
    '',
    '```',
    actionText(item.action),
    '```',
    '',
  );
  if (item.why) md.push(`why info: ${item.why}`, '');
  for (const [k, v] of Object.entries(item.evidence ?? {})) md.push(`- ${k}: ${show(v)}`);
  md.push('', 'label: ____ (useful / noise)   reason: ____', '');
}
writeFileSync(join(out, 'items.md'), `${md.join('\n')}\n`);
writeFileSync(
  join(out, 'items.json'),
  `${JSON.stringify(
    rows.map(({ vault, item }) => ({
      vault,
      id: item.id,
      kind: item.kind,
      status: item.status,
      notes: item.notes.map((n) => (n.entry ? `${n.path}#${n.entry}` : n.path)),
      label: null,
      reason: null,
    })),
    null,
    1,
  )}\n`,
);
const perKind = {};
for (const { item } of rows) {
  const k = (perKind[item.kind] ??= { proposed: 0, info: 0 });
  k[item.status]++;
}
console.error(`wrote ${join(out, 'items.md')} and items.json: ${rows.length} items`);
for (const [k, c] of Object.entries(perKind).sort()) console.error(`  ${k}: ${c.proposed} proposed, ${c.info} info`);
