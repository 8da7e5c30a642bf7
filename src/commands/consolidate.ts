import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { consolidateVault } from '../consolidate/run.js';
import type { IO } from '../io.js';
import { proposalToYaml } from '../proposal/yaml.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { writeFileAtomic } from '../util/atomic.js';
import { ensureStateDir } from '../util/cache-dir.js';
import { loadVault } from '../vault/load.js';
import { UsageError } from '../util/errors.js';
import { resolveTargets } from './targets.js';

export function runId(createdAt: string, manifest: string): string {
  return `${createdAt.replace(/[-:]/g, '').replace('T', '-').replace('Z', '')}-${manifest.slice(0, 6)}`;
}

/** Never overwrites an earlier proposal: a second run in the same second gets a suffix. */
function writeNewProposal(dir: string, id: string, text: string, commitProposals = false): string {
  ensureStateDir(dirname(dirname(dir)), commitProposals);
  mkdirSync(dir, { recursive: true });
  for (let n = 1; ; n++) {
    const file = join(dir, `${id}${n === 1 ? '' : `-${n}`}.yaml`);
    try {
      writeFileSync(file, text, { flag: 'wx' });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('consolidate', args, {
    root: { type: 'string' },
    out: { type: 'string', short: 'o' },
    format: { type: 'string', short: 'f' },
    config: { type: 'string', short: 'c' },
    kind: { type: 'string' },
    all: { type: 'boolean' },
  });
  const format = oneOf('consolidate', 'format', values.format, ['yaml', 'json'] as const, 'yaml');
  const kind = values.kind === undefined ? undefined : oneOf('consolidate', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  if (values.all && positionals.length) throw new UsageError('consolidate: give a VAULT or --all, not both');
  const targets = resolveTargets('consolidate', io, dir, Boolean(values.all));
  if (targets.many) {
    if (values.out || values.format) throw new UsageError('consolidate: with several vaults each proposal goes to VAULT/.memlint/proposals/ (no --out, no --format)');
    const rows: string[][] = [];
    for (const t of targets.targets) {
      const { config } = await loadConfig(t.dir, values.config ? resolve(io.cwd, values.config) : undefined);
      const vault = loadVault(t.dir, { config, ...(kind ? { kind } : {}) });
      const proposal = consolidateVault(vault, { ...(values.root ? { root: resolve(io.cwd, values.root) } : {}), path: io.env.PATH ?? '' });
      const file = writeNewProposal(join(vault.root, '.memlint', 'proposals'), runId(proposal.createdAt, proposal.manifest), proposalToYaml(proposal), config.commitProposals);
      rows.push([t.label, String(proposal.items.length), file]);
    }
    const w0 = Math.max(5, ...rows.map((r) => r[0]!.length));
    const w1 = Math.max(5, ...rows.map((r) => r[1]!.length));
    io.stdout.write(`${['vault'.padEnd(w0), 'items'.padStart(w1), 'proposal'].join('  ')}\n${rows.map((r) => [r[0]!.padEnd(w0), r[1]!.padStart(w1), r[2]].join('  ')).join('\n')}\n`);
    io.stderr.write(`memlint consolidate: ${rows.length} vaults, ${rows.reduce((n, r) => n + Number(r[1]), 0)} items\n`);
    return 0;
  }
  const { config } = await loadConfig(dir, values.config ? resolve(io.cwd, values.config) : undefined);
  const vault = loadVault(dir, { config, ...(kind ? { kind } : {}) });
  const showProgress = Boolean(io.stderr.isTTY) && !io.env.CI;
  const proposal = consolidateVault(vault, {
    ...(values.root ? { root: resolve(io.cwd, values.root) } : {}),
    path: io.env.PATH ?? '',
    progress: showProgress ? (m) => io.stderr.write(`memlint consolidate: ${m}…\n`) : undefined,
  });
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(proposal, null, 2)}\n`);
    return 0;
  }
  const text = proposalToYaml(proposal);
  if (values.out === '-') {
    io.stdout.write(text);
    return 0;
  }
  let out: string;
  if (values.out) {
    out = resolve(io.cwd, values.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileAtomic(out, text);
  } else {
    out = writeNewProposal(join(vault.root, '.memlint', 'proposals'), runId(proposal.createdAt, proposal.manifest), text, config.commitProposals);
  }
  const counts = Object.entries(proposal.summary?.items as Record<string, number>).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
  io.stderr.write(`memlint consolidate: ${proposal.items.length} items${counts ? ` (${counts})` : ''}\n`);
  io.stdout.write(`${out}\n`);
  return 0;
}
