import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { consolidateVault } from '../consolidate/run.js';
import type { IO } from '../io.js';
import { proposalToYaml } from '../proposal/yaml.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { writeFileAtomic } from '../util/atomic.js';
import { safeStateDir } from '../util/state-dir.js';
import { loadVault } from '../vault/load.js';

export function runId(createdAt: string, manifest: string): string {
  return `${createdAt.replace(/[-:]/g, '').replace('T', '-').replace('Z', '')}-${manifest.slice(0, 6)}`;
}

/** Never overwrites an earlier proposal: a second run in the same second gets a suffix. */
function writeNewProposal(dir: string, id: string, text: string): string {
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
  });
  const format = oneOf('consolidate', 'format', values.format, ['yaml', 'json'] as const, 'yaml');
  const kind = values.kind === undefined ? undefined : oneOf('consolidate', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
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
    out = writeNewProposal(safeStateDir(vault.root, 'proposals'), runId(proposal.createdAt, proposal.manifest), text);
  }
  const counts = Object.entries(proposal.summary?.items as Record<string, number>).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
  io.stderr.write(`memlint consolidate: ${proposal.items.length} items${counts ? ` (${counts})` : ''}\n`);
  io.stdout.write(`${out}\n`);
  return 0;
}
