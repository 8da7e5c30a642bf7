import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from './schema.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { ConfigError } from '../util/errors.js';

export const CONFIG_FILES = ['memlint.config.json', '.memlintrc.json'] as const;

export interface LoadedConfig {
  readonly config: Config;
  /** The file it came from, or null for defaults. */
  readonly source: string | null;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ConfigError(`config ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The rule registry's ids, asked for only when a config file is read (rules/ids.ts `knownRuleIds`). */
export type KnownRuleIds = () => Promise<readonly string[]>;

async function validate(raw: unknown, source: string, knownRuleIds: KnownRuleIds): Promise<Config> {
  const { parseConfig } = await import('./parse.js');
  return parseConfig(raw, source, await knownRuleIds());
}

/** --config FILE, else memlint.config.json / .memlintrc.json / package.json#memlint in the vault. */
export async function loadConfig(
  vaultDir: string,
  explicit: string | undefined,
  knownRuleIds: KnownRuleIds,
): Promise<LoadedConfig> {
  if (explicit) {
    const file = resolve(explicit);
    return { config: await validate(readJson(file), file, knownRuleIds), source: file };
  }
  for (const name of CONFIG_FILES) {
    const file = join(vaultDir, name);
    if (existsSync(file)) return { config: await validate(readJson(file), file, knownRuleIds), source: file };
  }
  const pkg = join(vaultDir, 'package.json');
  if (existsSync(pkg)) {
    const data = readJson(pkg) as { memlint?: unknown } | null;
    if (data && typeof data === 'object' && 'memlint' in data) {
      return { config: await validate(data.memlint, `${pkg}#memlint`, knownRuleIds), source: pkg };
    }
  }
  return { config: DEFAULT_CONFIG, source: null };
}
