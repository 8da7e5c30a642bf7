/** `check` as a library call: load the vault, run the rules, summarize. */
import { loadConfig } from './config/load.js';
import { knownRuleIds } from './rules/ids.js';
import type { Config } from './config/schema.js';
import { resolve } from 'node:path';
import type { CheckCache, CheckCacheOptions } from './cache/check-cache.js';
import { runRules } from './rules/engine.js';
import { FileRuleWorker, portableLast } from './rules/parallel.js';
import { RULE_IDS, RULES } from './rules/index.js';
import type { Finding } from './rules/types.js';
import { loadVault } from './vault/load.js';
import type { IndexInfo, Vault, VaultKind } from './vault/model.js';
import { VERSION } from './version.js';
import { mark } from './util/timing.js';

export interface CheckOptions {
  readonly config?: Config;
  readonly configFile?: string;
  readonly kind?: VaultKind;
  /** Reuse parses and per-file findings of unchanged files (`check --cache`). */
  readonly cache?: boolean | CheckCacheOptions;
  /** Project root for memory/restates-project and memory/duplicates-context-file (`--root`; else config `root`). */
  readonly root?: string;
  /** Check the vault as the git index holds it (the next commit), not the working tree. */
  readonly staged?: boolean;
  /** Run only these rules (`--rule`), or all but these (`--ignore-rule`). Ids must exist. */
  readonly rules?: { readonly only?: readonly string[]; readonly skip?: readonly string[] };
}

/** The config with rules outside `--rule` / inside `--ignore-rule` turned off. */
export function selectRules(config: Config, sel: CheckOptions['rules']): Config {
  if (!sel || (!sel.only?.length && !sel.skip?.length)) return config;
  const rules = { ...config.rules };
  for (const id of RULE_IDS) {
    if ((sel.only?.length && !sel.only.includes(id)) || sel.skip?.includes(id)) rules[id] = 'off';
  }
  return { ...config, rules };
}

export interface Summary {
  readonly notes: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export interface CheckResult {
  readonly vault: Vault;
  readonly findings: readonly Finding[];
  readonly summary: Summary;
  /** Claude vaults: the index budget and the entries past it (lostEntries); null for Hermes or without an index. */
  readonly index: IndexInfo | null;
  /** A rule crashed: the result is incomplete (exit 2). */
  readonly crashed: boolean;
}

export function summarize(vault: Vault, findings: readonly Finding[]): Summary {
  let errors = 0,
    warnings = 0,
    infos = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
    else infos++;
  }
  const notes = vault.kind === 'hermes' ? vault.stores.reduce((n, s) => n + s.entries.length, 0) : vault.notes.length;
  return { notes, errors, warnings, infos };
}

export function checkLoadedVault(vault: Vault, cache?: CheckCache, parallel?: FileRuleWorker): CheckResult {
  mark('load');
  let run;
  try {
    run = parallel ? runRules(vault, portableLast(RULES), parallel) : runRules(vault, RULES, cache?.findingsFor(vault));
  } finally {
    parallel?.close();
  }
  const { findings, crashed } = run;
  mark(parallel ? `rules (${parallel.stats()})` : 'rules');
  if (cache && !crashed) {
    cache.save(vault);
    mark(
      `cache (of ${vault.files.length} files, ${cache.hits.unchanged} unchanged, ${cache.hits.sameBytes} same bytes)`,
    );
  }
  return { vault, findings, summary: summarize(vault, findings), index: vault.indexInfo, crashed };
}

export async function checkVault(dir: string, options: CheckOptions = {}): Promise<CheckResult> {
  const selected = selectRules(
    options.config ?? (await loadConfig(dir, options.configFile, knownRuleIds)).config,
    options.rules,
  );
  const config = options.root ? { ...selected, root: resolve(options.root) } : selected;
  if (options.staged) {
    const { loadStagedVault } = await import('./vault/staged.js');
    return checkLoadedVault(loadStagedVault(dir, { config, ...(options.kind ? { kind: options.kind } : {}) }));
  }
  const cache = options.cache ? await openCheckCache(dir, config, options.cache) : undefined;
  // Without a cache, the rules that read one file alone run beside the rest on a second thread (large vaults).
  const parallel = cache ? null : FileRuleWorker.create(config, resolve(dir));
  let vault;
  try {
    vault = loadVault(dir, {
      config,
      ...(options.kind ? { kind: options.kind } : {}),
      ...(cache ? { parseCache: cache } : {}),
      ...(parallel ? { onParsed: parallel.add } : {}),
    });
  } catch (e) {
    parallel?.close();
    throw e;
  }
  parallel?.finish();
  return checkLoadedVault(vault, cache, parallel ?? undefined);
}

async function openCheckCache(dir: string, config: Config, cache: true | CheckCacheOptions): Promise<CheckCache> {
  const { CheckCache } = await import('./cache/check-cache.js');
  return CheckCache.open(resolve(dir), config, cache === true ? {} : cache);
}

/** The JSON object of the contract (`memlint check --format json`). */
export function toJsonReport(result: CheckResult): Record<string, unknown> {
  const { vault } = result;
  const out: Record<string, unknown> = {
    tool: 'memlint',
    version: VERSION,
    vault: vault.root,
    kind: vault.kind,
    summary: result.summary,
  };
  if (vault.kind === 'claude') out.index = indexJson(vault.indexInfo);
  if (vault.kind === 'hermes')
    out.stores = vault.stores.map((s) => ({
      file: s.file,
      chars: s.chars,
      maxChars: s.maxChars,
      entries: s.loadedEntries,
    }));
  out.findings = result.findings;
  return out;
}

function indexJson(info: IndexInfo | null): Record<string, unknown> | null {
  if (!info) return null;
  return {
    file: info.file,
    lines: info.lines,
    bytes: info.bytes,
    maxLines: info.maxLines,
    maxBytes: info.maxBytes,
    measure: info.measure,
    loadedLines: info.loadedLines,
    lostEntries: info.lostEntries.map((e) => ({ line: e.line, target: e.target, text: e.text })),
  };
}
