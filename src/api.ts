/**
 * The library face of the four workflows: each function returns the same JSON the CLI prints
 * (`check --format json`, `consolidate --format json`, the `apply` dry run, `guard --format json`).
 * Nothing here writes to the vault: `planApply` only plans (apply --execute stays a CLI step that a
 * person takes), `consolidate` returns the proposal instead of writing it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkVault, toJsonReport, type CheckOptions } from './check.js';
import { loadConfig as loadConfigWith, type LoadedConfig } from './config/load.js';
import { parseConfig as parseConfigWith } from './config/parse.js';
import { RULE_IDS } from './rules/index.js';
import { knownRuleIds } from './rules/ids.js';
import type { Config } from './config/schema.js';
import type { Finding } from './rules/types.js';
import type { Proposal } from './proposal/schema.js';
import { ProposalError } from './util/errors.js';
import { sha256Hex } from './util/digest.js';
import { loadVault } from './vault/load.js';
import type { IndexEntry, VaultKind } from './vault/model.js';
import type { GuardMatch } from './guard/guard.js';
import type { IndexGuard } from './guard/index-target.js';

/** The library's config loader: `--config FILE`, else the vault's config file, rule ids checked against the registry. */
export function loadConfig(vaultDir: string, explicit?: string): Promise<LoadedConfig> {
  return loadConfigWith(vaultDir, explicit, knownRuleIds);
}

/** The library's config validator (rule ids checked against the registry). */
export function parseConfig(raw: unknown, source: string): Config {
  return parseConfigWith(raw, source, RULE_IDS);
}

export interface CheckReport {
  readonly tool: 'memlint';
  readonly version: string;
  readonly vault: string;
  readonly kind: VaultKind;
  readonly summary: {
    readonly notes: number;
    readonly errors: number;
    readonly warnings: number;
    readonly infos: number;
  };
  /** Claude vaults: the index budget, and the entries past it that the agent never sees. */
  readonly index?: {
    readonly file: string;
    readonly lines: number;
    readonly bytes: number;
    readonly maxLines: number;
    readonly maxBytes: number;
    readonly loadedLines: number;
    readonly lostEntries: readonly Pick<IndexEntry, 'line' | 'target' | 'text'>[];
  } | null;
  /** Hermes vaults: each store's size against its budget. */
  readonly stores?: readonly {
    readonly file: string;
    readonly chars: number;
    readonly maxChars: number;
    readonly entries: number;
  }[];
  readonly findings: readonly Finding[];
}

export interface LibraryOptions {
  /** A config object, else `configFile`, else the vault's own memlint.config.json (as the CLI). */
  readonly config?: Config;
  readonly configFile?: string;
  readonly kind?: VaultKind;
}

/** `memlint check VAULT --format json`, as an object. */
export async function check(
  vault: string,
  options: LibraryOptions & Pick<CheckOptions, 'rules' | 'staged'> = {},
): Promise<CheckReport> {
  return toJsonReport(await checkVault(resolve(vault), options)) as unknown as CheckReport;
}

async function configFor(dir: string, options: LibraryOptions): Promise<Config> {
  return options.config ?? (await loadConfigWith(dir, options.configFile, knownRuleIds)).config;
}

/** `memlint consolidate VAULT --format json`: the proposal, not written anywhere. */
export async function consolidate(
  vault: string,
  options: LibraryOptions & { readonly root?: string; readonly now?: Date } = {},
): Promise<Proposal> {
  const dir = resolve(vault);
  const { consolidateVault } = await import('./consolidate/consolidate.js');
  const vaultModel = loadVault(dir, {
    config: await configFor(dir, options),
    ...(options.kind ? { kind: options.kind } : {}),
  });
  return consolidateVault(vaultModel, {
    ...(options.root ? { root: resolve(options.root) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

export interface PlannedChange {
  readonly path: string;
  readonly item: string;
  /** sha256 of the bytes before / after; null when the file is created / removed. */
  readonly before: string | null;
  readonly after: string | null;
}

export interface ApplyPlan {
  readonly vault: string;
  readonly items: readonly {
    readonly id: string;
    readonly kind: string;
    readonly action: string;
    readonly status: string;
    readonly reason?: string;
    readonly summary?: string;
    readonly warnings: readonly string[];
  }[];
  readonly changes: readonly PlannedChange[];
}

/**
 * The dry run of `memlint apply PROPOSAL`: what each approved item would do and which files would
 * change. `proposal` is a proposal object or the path of a proposal file. Changes nothing.
 */
export async function planApply(
  proposal: Proposal | string,
  options: Omit<LibraryOptions, 'kind'> & { readonly allOrNothing?: boolean } = {},
): Promise<ApplyPlan> {
  const { parseProposal } = await import('./proposal/yaml.js');
  let parsed: Proposal;
  if (typeof proposal === 'string') {
    let text: string;
    try {
      text = readFileSync(resolve(proposal), 'utf8');
    } catch (e) {
      throw new ProposalError(
        `cannot read proposal ${proposal}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    parsed = parseProposal(text, resolve(proposal));
  } else {
    const { proposalSchema } = await import('./proposal/schema.js');
    const r = proposalSchema.safeParse(proposal);
    if (!r.success)
      throw new ProposalError(
        `not a valid proposal: ${r.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`)
          .join('; ')}`,
      );
    parsed = r.data;
  }
  const { planApply: plan } = await import('./apply/plan.js');
  const config = await configFor(parsed.vault, options);
  const p = plan(parsed, loadVault(parsed.vault, { config }), '<dry-run>', {
    allOrNothing: Boolean(options.allOrNothing),
  });
  return {
    vault: p.vault,
    items: p.items,
    changes: p.changes.map((c) => ({
      path: c.path,
      item: c.item,
      before: c.before ? sha256Hex(c.before.bytes) : null,
      after: c.after ? sha256Hex(c.after.bytes) : null,
    })),
  };
}

export interface GuardReport {
  readonly verdict: 'ok' | 'ask' | 'refuse';
  readonly matches: readonly GuardMatch[];
  readonly problems: readonly Finding[];
  readonly reasons: readonly string[];
  /** Index and store budget, when the write targets the index, a store, or a new note. */
  readonly index?: IndexGuard;
}

/** `memlint guard VAULT --format json` for a draft note: would writing it duplicate or contradict a note? */
export async function guard(
  vault: string,
  draft: string,
  options: Omit<LibraryOptions, 'kind'> & {
    readonly path?: string;
    readonly cache?: 'read-write' | 'read-only' | 'off';
  } = {},
): Promise<GuardReport> {
  const dir = resolve(vault);
  const { guardDraft } = await import('./guard/guard.js');
  const r = guardDraft(dir, await configFor(dir, options), draft, {
    ...(options.path ? { targetPath: options.path.split('\\').join('/') } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  });
  return {
    verdict: r.verdict,
    matches: r.matches,
    problems: r.problems,
    reasons: r.reasons,
    ...(r.index ? { index: r.index } : {}),
  };
}
