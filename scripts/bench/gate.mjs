#!/usr/bin/env node
// Times consolidate's post-state gate (apply/withhold.ts `withholdRefused` → apply/gate.ts `gatedPlan`) in process,
// in CPU time, on one vault: the stages run once (or their proposal is read from a saved file), then the gate runs
// alone. Prints the gate's CPU time, its counters (apply.gateChecks, link.resolve, ...) and a digest of its verdict
// (item ids kept, items withheld with why) so two builds can be compared on the same input.
//
//   node scripts/bench/gate.mjs VAULT [--lib DIR] [--pre FILE] [--runs N]
//     --lib DIR   the tsc build to measure (default: this checkout's dist/lib; e.g. /work/main/dist/lib for A/B)
//     --pre FILE  the proposal before the gate, as JSON: read when the file exists, else computed and written there
//     --runs N    run the gate N times in this process (default 1; each on a fresh load of the vault)
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const vaultDir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!vaultDir) {
  process.stderr.write('usage: node scripts/bench/gate.mjs VAULT [--lib DIR] [--pre FILE] [--runs N]\n');
  process.exit(2);
}
const lib = resolve(opt('--lib') ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'lib'));
const load = (p) => import(pathToFileURL(join(lib, p)).href);
const { loadConfig } = await load('config/load.js');
const { knownRuleIds } = await load('rules/ids.js');
const { loadVault } = await load('vault/load.js');
const { consolidateVault } = await load('consolidate/consolidate.js');
const { withholdRefused } = await load('apply/withhold.js');
const counters = await load('util/counters.js');

const dir = resolve(vaultDir);
const { config } = await loadConfig(dir, undefined, knownRuleIds);
const pre = opt('--pre');
let proposal;
if (pre && existsSync(pre)) proposal = JSON.parse(readFileSync(pre, 'utf8'));
else {
  proposal = consolidateVault(loadVault(dir, { config }), { path: process.env.PATH ?? '' });
  if (pre) writeFileSync(pre, JSON.stringify(proposal));
}
const runs = Number(opt('--runs') ?? 1);
for (let r = 0; r < runs; r++) {
  const vault = loadVault(dir, { config });
  counters.startCounting();
  const t0 = process.cpuUsage();
  const out = withholdRefused(proposal, vault);
  const t = process.cpuUsage(t0);
  const c = counters.stopCounting();
  const verdict = JSON.stringify({ items: out.items.map((i) => i.id), withheld: out.summary?.withheld ?? [] });
  const digest = createHash('sha256').update(verdict).digest('hex').slice(0, 16);
  process.stdout.write(
    `gate ${dir} (${lib}): cpu ${((t.user + t.system) / 1e6).toFixed(2)} s (user ${(t.user / 1e6).toFixed(2)}, sys ${(t.system / 1e6).toFixed(2)}); ` +
      `items in ${proposal.items.length}, out ${out.items.length}, withheld ${(out.summary?.withheld ?? []).length}; verdict ${digest}\n` +
      `  counters: ${Object.entries(c)
        .filter(([k]) => k.startsWith('apply.') || k.startsWith('link.') || k.startsWith('gate.'))
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n`,
  );
}
