import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkLoadedVault } from '../check.js';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import { consolidateVault } from '../consolidate/consolidate.js';
import type { IO } from '../io.js';
import { parseProposal } from '../proposal/yaml.js';
import { renderReport } from '../html-report/html.js';
import { parseCommandArgs } from '../util/args.js';
import { writeFileAtomic } from '../util/atomic.js';
import { UsageError } from '../util/errors.js';
import { loadVault } from '../vault/load.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', args, {
    html: { type: 'string' },
    root: { type: 'string' },
    config: { type: 'string', short: 'c' },
  });
  if (!values.html) throw new UsageError('report: where to? memlint report [PROPOSAL | VAULT] --html FILE');
  const input = resolve(io.cwd, positionals[0] ?? '.');
  const isDir = (() => {
    try {
      return statSync(input).isDirectory();
    } catch {
      return false;
    }
  })();
  const proposal = isDir ? null : parseProposal(readFileSync(input, 'utf8'), input);
  const root = proposal ? proposal.vault : input;
  const { config } = await loadConfig(root, values.config ? resolve(io.cwd, values.config) : undefined, knownRuleIds);
  const vault = loadVault(root, { config });
  const result = checkLoadedVault(vault);
  const shown =
    proposal ??
    consolidateVault(vault, {
      ...(values.root ? { root: resolve(io.cwd, values.root) } : {}),
      path: io.env.PATH ?? '',
    });
  const out = resolve(io.cwd, values.html);
  writeFileAtomic(out, renderReport(result, shown, proposal ? input : 'a fresh read-only consolidate'));
  io.stdout.write(`${out}\n`);
  return 0;
}
