import type { z } from 'zod';
import type { Severity } from '../config/schema.js';
import type { Vault, VaultFile, VaultKind } from '../vault/model.js';

export interface RelatedLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly related?: readonly RelatedLocation[];
}

export interface Report {
  readonly messageId: string;
  readonly file: VaultFile | string;
  /** Offset in the file's text; or give line/column directly. */
  readonly offset?: number;
  readonly length?: number;
  readonly line?: number;
  readonly column?: number;
  readonly data?: Record<string, unknown>;
  /** Overrides the rule's default severity for this one finding (the config still wins). */
  readonly severity?: Severity;
  readonly related?: readonly RelatedLocation[];
}

export interface RuleContext<Options> {
  readonly vault: Vault;
  readonly options: Options;
  report(r: Report): void;
}

export interface RuleMeta<Options> {
  readonly description: string;
  readonly severity: Severity;
  /**
   * Some findings are errors although `severity` is lower (a per-finding `Report.severity` of
   * 'error'). The post-state gate runs only the rules that can report an error (src/apply/gate.ts).
   */
  readonly escalates?: true;
  readonly tags: readonly string[];
  /** Why the rule matters and how to fix a finding: rendered into README and `--help`. */
  readonly docs: { readonly why: string; readonly fix: string };
  /** Message templates; `{name}` is replaced by `data.name`. */
  readonly messages: Readonly<Record<string, string>>;
  readonly kinds: readonly VaultKind[];
  /** Validates the options a config sets (built, and zod loaded, on first read: src/util/lazy-zod.ts). */
  readonly options?: z.ZodType<Options>;
  /** What `options.parse({})` gives: used when the config sets no options, so zod is not loaded. Required with `options`. */
  readonly defaults?: Options;
  /**
   * The rule reads something besides the vault and the config (project files, git, context files, the
   * home folder): `check --cache` runs it every time. Every other rule's findings are taken as a function of
   * the vault's files and the config, and remembered while those are unchanged (src/cache/check-cache.ts).
   */
  readonly readsOutsideVault?: true;
}

interface RuleBase<Options> {
  readonly id: string;
  readonly meta: RuleMeta<Options>;
}

/** A rule that needs the whole vault (links between notes, indexes, names across notes). */
export interface VaultRule<Options> extends RuleBase<Options> {
  check(ctx: RuleContext<Options>): void;
  readonly checkFile?: undefined;
}

/**
 * A rule whose findings on a file depend only on that file's bytes, role and the config. The engine
 * calls it once per file, and `check --cache` reuses its findings for a file whose content is unchanged.
 */
export interface FileRule<Options> extends RuleBase<Options> {
  checkFile(file: VaultFile, ctx: RuleContext<Options>): void;
  readonly check?: undefined;
}

export type Rule<Options = Record<string, never>> = VaultRule<Options> | FileRule<Options>;

export function defineRule<Options = Record<string, never>>(rule: Rule<Options>): Rule<Options> {
  return rule;
}
