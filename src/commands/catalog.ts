import { resolve } from 'node:path';
import { buildCatalog } from '../catalog/build.js';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import type { IO } from '../io.js';
import { parseCommandArgs } from '../util/args.js';
import { ConfigError, UsageError } from '../util/errors.js';
import { unsafePath } from '../apply/paths.js';
import { writeFileAtomic } from '../util/atomic.js';
import { loadVault } from '../vault/load.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('catalog', args, {
    write: { type: 'boolean' },
    check: { type: 'boolean' },
    config: { type: 'string', short: 'c' },
  });
  if (values.write && values.check) throw new UsageError('catalog: --write and --check exclude each other');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const { config } = await loadConfig(dir, values.config ? resolve(io.cwd, values.config) : undefined, knownRuleIds);
  const vault = loadVault(dir, { config });
  if (vault.kind === 'hermes')
    throw new UsageError('catalog: a hermes store has no catalog (its entries live in MEMORY.md / USER.md)');
  const text = buildCatalog(vault);
  const target = resolve(vault.root, config.catalog.file);
  const current = vault.catalog?.text ?? null;
  if (values.check) {
    if (current === text) {
      io.stdout.write(`${config.catalog.file} is up to date\n`);
      return 0;
    }
    io.stdout.write(
      `${config.catalog.file} is ${current === null ? 'missing' : 'stale'}; run memlint catalog --write\n`,
    );
    return 1;
  }
  if (values.write) {
    if (current === text) {
      io.stdout.write(`${config.catalog.file} is already up to date\n`);
      return 0;
    }
    // The catalog's name comes from the vault's own config: checked like any path memlint writes.
    const unsafe = unsafePath(vault.root, config.catalog.file);
    if (unsafe) throw new ConfigError(`catalog: refusing to write ${unsafe}`);
    writeFileAtomic(target, text);
    io.stdout.write(`wrote ${config.catalog.file} (${vault.notes.length} notes)\n`);
    return 0;
  }
  io.stdout.write(text);
  return 0;
}
