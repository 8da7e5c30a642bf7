import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import { consolidateVault } from '../consolidate/consolidate.js';
import type { IO } from '../io.js';
import { withholdRefused } from '../apply/withhold.js';
import { proposalToYaml } from '../proposal/yaml.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { writeFileAtomic } from '../util/atomic.js';
import { ensureStateDir } from '../util/cache-dir.js';
import { safeStateDir } from '../util/state-dir.js';
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
  const kind =
    values.kind === undefined
      ? undefined
      : oneOf('consolidate', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  if (values.root !== undefined && !isDirectory(resolve(io.cwd, values.root)))
    throw new UsageError(`consolidate: --root ${values.root}: no such folder`);
  if (values.all && positionals.length) throw new UsageError('consolidate: give a VAULT or --all, not both');
  const targets = resolveTargets('consolidate', io, dir, Boolean(values.all));
  if (targets.many) {
    if (values.out || values.format)
      throw new UsageError(
        'consolidate: with several vaults each proposal goes to VAULT/.memlint/proposals/ (no --out, no --format)',
      );
    const rows: string[][] = [];
    for (const t of targets.targets) {
      const { config } = await loadConfig(
        t.dir,
        values.config ? resolve(io.cwd, values.config) : undefined,
        knownRuleIds,
      );
      const vault = loadVault(t.dir, { config, ...(kind ? { kind } : {}) });
      const proposal = consolidateVault(vault, {
        ...(values.root ? { root: resolve(io.cwd, values.root) } : {}),
        path: io.env.PATH ?? '',
      });
      const file = writeNewProposal(
        safeStateDir(vault.root, 'proposals'),
        runId(proposal.createdAt, proposal.manifest),
        proposalToYaml(proposal),
        config.commitProposals,
      );
      rows.push([t.label, String(proposal.items.length), file]);
    }
    const w0 = Math.max(5, ...rows.map((r) => r[0]!.length));
    const w1 = Math.max(5, ...rows.map((r) => r[1]!.length));
    io.stdout.write(
      `${['vault'.padEnd(w0), 'items'.padStart(w1), 'proposal'].join('  ')}\n${rows.map((r) => [r[0]!.padEnd(w0), r[1]!.padStart(w1), r[2]].join('  ')).join('\n')}\n`,
    );
    io.stderr.write(
      `memlint consolidate: ${rows.length} vaults, ${rows.reduce((n, r) => n + Number(r[1]), 0)} items\n`,
    );
    return 0;
  }
  // Where the proposal goes is checked before the work: a state folder that is a link is refused at once.
  if (format !== 'json' && !values.out) safeStateDir(dir, 'proposals');
  const { config } = await loadConfig(dir, values.config ? resolve(io.cwd, values.config) : undefined, knownRuleIds);
  const vault = loadVault(dir, { config, ...(kind ? { kind } : {}) });
  const showProgress = Boolean(io.stderr.isTTY) && !io.env.CI;
  const proposal = withholdRefused(
    consolidateVault(vault, {
      ...(values.root ? { root: resolve(io.cwd, values.root) } : {}),
      path: io.env.PATH ?? '',
      progress: showProgress ? (m) => io.stderr.write(`memlint consolidate: ${m}…\n`) : undefined,
    }),
    vault,
  );
  const unchecked = uncheckedReferences(proposal.summary?.deadReferences);
  if (unchecked) io.stderr.write(`memlint consolidate: ${unchecked}\n`);
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
    out = writeNewProposal(
      safeStateDir(vault.root, 'proposals'),
      runId(proposal.createdAt, proposal.manifest),
      text,
      config.commitProposals,
    );
  }
  const counts = Object.entries(proposal.summary?.items as Record<string, number>)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const withheld = (proposal.summary?.withheld as unknown[] | undefined)?.length ?? 0;
  io.stderr.write(
    `memlint consolidate: ${proposal.items.length} items${counts ? ` (${counts})` : ''}${withheld ? `; ${withheld} withheld because apply would refuse them (see summary.withheld)` : ''}${infoCounts(proposal.summary?.info)}\n`,
  );
  io.stdout.write(`${out}\n`);
  return 0;
}

/** "; 8 shown for information, not proposed (1 contradiction, …)" from summary.info, or ''. */
function infoCounts(info: unknown): string {
  const entries = Object.entries((info ?? {}) as Record<string, number>).filter(([, n]) => n > 0);
  const total = entries.reduce((n, [, k]) => n + k, 0);
  return total
    ? `; ${total} shown for information, not proposed (${entries.map(([k, n]) => `${n} ${k}`).join(', ')})`
    : '';
}

const isDirectory = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const SKIP_WHY: Record<string, string> = {
  'no-root': 'no project root found (pass `--root`)',
  url: 'URLs',
  glob: 'globs',
  placeholder: 'placeholders',
  'outside-root': 'outside the root',
  'home-path': 'home-folder paths',
  unanchored: 'not under a folder of the root',
  'no-package-json': 'no package.json',
  'no-makefile': 'no Makefile',
  'not-local-module': 'not a module of the project',
  'relative-import': 'relative imports',
  'no-node-modules': 'no node_modules',
  builtin: 'built-in modules',
};

/** "N references could not be checked: …", or null when every reference was checked. */
export function uncheckedReferences(summary: unknown): string | null {
  const s = summary as { checked?: number; skipped?: Record<string, number> } | undefined;
  const skipped = Object.entries(s?.skipped ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = skipped.reduce((n, [, k]) => n + k, 0);
  if (total === 0) return null;
  const why = skipped.map(([r, n]) => `${n} ${SKIP_WHY[r] ?? r}`).join(', ');
  return `${total} reference${total > 1 ? 's' : ''} could not be checked (${s?.checked ?? 0} checked): ${why}`;
}
