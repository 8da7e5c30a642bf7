/** `check` as a library call: load the vault, run the rules, summarize. */
import { loadConfig } from './config/load.js';
import { knownRuleIds } from './rules/ids.js';
import type { Config } from './config/schema.js';
import { resolve } from 'node:path';
import type { CheckCache, CheckCacheOptions } from './cache/check-cache.js';
import type { FastAnswer, FastInputs, FastResult } from './cache/check-cache-vault.js';
import type { Discovery } from './vault/discover.js';
import { compareFindings, runRules, type RunResult } from './rules/engine.js';
import { FileRuleWorker, portableLast } from './rules/parallel.js';
import { RULE_IDS, RULES } from './rules/index.js';
import type { Finding } from './rules/types.js';
import { loadVault } from './vault/load.js';
import type { IndexInfo, Vault, VaultKind } from './vault/model.js';
import { VERSION } from './version.js';
import { mark } from './util/timing.js';
import { byteArena } from './util/arena.js';

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

export function summarize(vault: Vault, findings: readonly Finding[], notesCount?: number): Summary {
  let errors = 0,
    warnings = 0,
    infos = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
    else infos++;
  }
  const notes =
    notesCount ??
    (vault.kind === 'hermes' ? vault.stores.reduce((n, s) => n + s.entries.length, 0) : vault.notes.length);
  return { notes, errors, warnings, infos };
}

/** Rules that read only the vault and the config (`check --cache` may remember their findings), and the others. */
const CLOSED_RULES = RULES.filter((r) => !r.meta.readsOutsideVault);
const OPEN_RULES = RULES.filter((r) => r.meta.readsOutsideVault);

export function checkLoadedVault(
  vault: Vault,
  cache?: CheckCache,
  fast?: Omit<FastInputs, 'notes'>,
  parallel?: FileRuleWorker,
): CheckResult {
  mark('load');
  let run: RunResult;
  try {
    run = cache
      ? runCached(vault, cache, fast)
      : parallel
        ? runRules(vault, portableLast(RULES), parallel)
        : runRules(vault, RULES);
  } finally {
    parallel?.close();
  }
  const { findings, crashed } = run;
  mark(parallel ? `rules (${parallel.stats()})` : 'rules');
  if (cache && !crashed) {
    cache.save(vault);
    mark(
      `cache (of ${vault.files.length} files, ${cache.hits.unchanged} unchanged, ${cache.hits.sameBytes} same bytes${cache.hits.vault ? ', vault rules remembered' : ''})`,
    );
  }
  return { vault, findings, summary: summarize(vault, findings), index: vault.indexInfo, crashed };
}

/**
 * The rules with the cache: the closed rules' findings as the last run made them while nothing they read has
 * changed (else they run, file rules reusing their per-file findings, and are remembered), then the rules that
 * read outside the vault. Rule ids differ between the two groups and the sort is stable, so the merged list is
 * in the order one run of every rule gives.
 */
function runCached(vault: Vault, cache: CheckCache, fast: Omit<FastInputs, 'notes'> | undefined): RunResult {
  const fileFindings = cache.findingsFor(vault);
  const inputs = fast && { ...fast, notes: summarize(vault, []).notes };
  const remembered = cache.vaultFindings(vault, inputs);
  const closed = remembered ? { findings: remembered, crashed: false } : runRules(vault, CLOSED_RULES, fileFindings);
  mark(remembered ? 'rules remembered' : 'closed rules');
  const open = runRules(vault, OPEN_RULES);
  const crashed = closed.crashed || open.crashed;
  if (!remembered && !crashed) cache.rememberVault(vault, closed.findings, inputs);
  return { findings: merged(closed.findings, open.findings), crashed };
}

const merged = (closed: readonly Finding[], open: readonly Finding[]): readonly Finding[] =>
  open.length ? [...closed, ...open].sort(compareFindings) : closed;

/**
 * `check --cache` of a vault unchanged since the last run (check-cache-vault.ts): the closed rules' findings
 * remembered, the rules that read outside the vault run on a vault that is built only if one of them reads
 * its files (they read the root and the config first, and usually find nothing outside to compare with).
 */
function checkUnchanged(root: string, config: Config, answer: FastAnswer, build: () => Vault): CheckResult {
  const vault = lazyVault(root, answer.kind, config, answer.indexInfo, build);
  const open = runRules(vault, OPEN_RULES);
  mark('rules outside the vault');
  const findings = merged(answer.findings, open.findings);
  return {
    vault,
    findings,
    summary: summarize(vault, findings, answer.notes),
    index: answer.indexInfo,
    crashed: open.crashed,
  };
}

/** The parts of a Vault that `lazyVault` builds only when read. */
const BUILT_ON_USE = [
  'files',
  'notes',
  'index',
  'catalog',
  'secondaryIndexes',
  'stores',
  'skipped',
  'byPath',
  'otherFiles',
] as const satisfies readonly (keyof Vault)[];

/** A Vault whose root, kind, config and index figures are known, and whose files are read on first use. */
function lazyVault(
  root: string,
  kind: VaultKind,
  config: Config,
  indexInfo: IndexInfo | null,
  build: () => Vault,
): Vault {
  let built: Vault | undefined;
  const known = { root, kind, config, indexInfo };
  for (const key of BUILT_ON_USE)
    Object.defineProperty(known, key, { enumerable: true, get: () => (built ??= build())[key] });
  return Object.freeze(known) as unknown as Vault;
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
  if (!options.cache) {
    // Without a cache, the rules that read one file alone run beside the rest on a second thread (large vaults).
    const parallel = FileRuleWorker.create(config, resolve(dir));
    let vault;
    try {
      vault = loadVault(dir, {
        config,
        ...(options.kind ? { kind: options.kind } : {}),
        ...(parallel ? { onParsed: parallel.add } : {}),
        // Files' bytes in a few shared buffers, not one each (and the worker reads them there, without a copy).
        alloc: byteArena(),
        // No rule reads a file's bytes: once parsed (and posted to the worker), only the text is kept.
        keepBytes: false,
      });
    } catch (e) {
      parallel?.close();
      throw e;
    }
    parallel?.finish();
    return checkLoadedVault(vault, undefined, undefined, parallel ?? undefined);
  }
  const cacheOptions = options.cache === true ? {} : options.cache;
  const { CheckCache } = await import('./cache/check-cache.js');
  const root = resolve(dir);
  const kindOption = options.kind ?? null;
  // The vault is built from what the fast part already found (discovery, stats), not walked again.
  const load = (
    kind: VaultKind | undefined,
    fast: FastResult,
    onDiscover?: (found: Discovery) => void,
  ): { vault: Vault; cache: CheckCache } => {
    const cache = CheckCache.open(root, config, cacheOptions);
    cache.useStats(fast.stats);
    const vault = loadVault(dir, {
      config,
      ...(kind ? { kind } : {}),
      parseCache: cache,
      ...(fast.found ? { found: fast.found } : {}),
      ...(onDiscover ? { onDiscover } : {}),
    });
    return { vault, cache };
  };
  const fast = CheckCache.fast(root, config, kindOption, cacheOptions);
  const { answer } = fast;
  mark(answer ? 'unchanged since the cache' : 'cache: vault changed');
  if (answer) return checkUnchanged(root, config, answer, () => load(answer.kind, fast).vault);
  let found: Discovery | undefined;
  const { vault, cache } = load(options.kind, fast, (d) => (found = d));
  return checkLoadedVault(vault, cache, found && { found, kindOption });
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
