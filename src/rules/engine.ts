/** Runs rules over a vault: severities from config, crashes contained, output sorted. */
import type { Severity } from '../config/schema.js';
import { sha256Hex } from '../util/digest.js';
import type { Vault, VaultFile } from '../vault/model.js';
import type { Finding, Report, Rule } from './types.js';
import { mark } from '../util/timing.js';

export function renderMessage(template: string, data: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (key in data ? String(data[key]) : m));
}

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  if (a.ruleId !== b.ruleId) return a.ruleId < b.ruleId ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

export interface RunResult {
  readonly findings: readonly Finding[];
  /** True when a rule threw: the run is incomplete (exit 2). */
  readonly crashed: boolean;
}

function configuredSeverity(vault: Vault, id: string): Severity | 'off' | undefined {
  const setting = vault.config.rules[id];
  if (setting === undefined) return undefined;
  return typeof setting === 'string' ? setting : setting.severity;
}

/**
 * Findings a file rule made on a file in an earlier run (`check --cache`): the cache answers only
 * for a file whose bytes, role and config are unchanged since, so reusing them changes nothing.
 */
export interface FileFindingsCache {
  get(file: VaultFile, ruleId: string): readonly Finding[] | undefined;
  set(file: VaultFile, ruleId: string, findings: readonly Finding[]): void;
}

export function runRules(vault: Vault, rules: readonly Rule<any>[], cache?: FileFindingsCache): RunResult {
  const findings: Finding[] = [];
  let crashed = false;
  for (const rule of rules) {
    if (!rule.meta.kinds.includes(vault.kind)) continue;
    const configured = configuredSeverity(vault, rule.id);
    if (configured === 'off') continue;
    const setting = vault.config.rules[rule.id];
    const rawOptions = typeof setting === 'object' ? (setting.options ?? {}) : {};
    let options: unknown = rawOptions;
    // No options set: the rule's defaults, without building its schema (zod costs guard's start-up).
    if (rule.meta.defaults !== undefined && typeof rawOptions === 'object' && Object.keys(rawOptions).length === 0) {
      options = { ...rule.meta.defaults };
    } else if (rule.meta.options) {
      const parsed = rule.meta.options.safeParse(rawOptions);
      if (!parsed.success) {
        findings.push(
          internal(rule.id, `invalid options for ${rule.id}: ${parsed.error.issues.map((i) => i.message).join('; ')}`),
        );
        crashed = true;
        continue;
      }
      options = parsed.data;
    }
    let sink = findings;
    const report = (r: Report): void => {
      const file = typeof r.file === 'string' ? null : r.file;
      const path = typeof r.file === 'string' ? r.file : r.file.path;
      let line = r.line ?? 1;
      let column = r.column ?? 1;
      let endLine: number | undefined;
      let endColumn: number | undefined;
      if (file && r.offset !== undefined) {
        ({ line, column } = file.position(r.offset));
        if (r.length !== undefined && r.length > 0)
          ({ line: endLine, column: endColumn } = file.position(r.offset + r.length));
      }
      const template = rule.meta.messages[r.messageId];
      if (template === undefined) throw new Error(`rule ${rule.id} has no message '${r.messageId}'`);
      const data = r.data ?? {};
      sink.push({
        ruleId: rule.id,
        severity: configured ?? r.severity ?? rule.meta.severity,
        file: path,
        line,
        column,
        ...(endLine !== undefined ? { endLine, endColumn } : {}),
        message: renderMessage(template, data),
        data,
        ...(r.related ? { related: r.related } : {}),
      });
    };
    try {
      const ctx = { vault, options, report } as never;
      if (rule.checkFile) {
        for (const file of vault.files) {
          const known = cache?.get(file, rule.id);
          if (known) {
            for (const f of known) findings.push(f);
            continue;
          }
          sink = [];
          rule.checkFile(file, ctx);
          for (const f of sink) findings.push(f);
          cache?.set(file, rule.id, sink);
          sink = findings;
        }
      } else {
        rule.check(ctx);
      }
    } catch (e) {
      crashed = true;
      findings.push(internal(rule.id, `rule ${rule.id} crashed: ${(e as Error).message}`));
    }
    mark(`  ${rule.id}`);
  }
  findings.sort(compareFindings);
  return { findings: withoutReviewed(vault, findings), crashed };
}

/** Drops findings a person reviewed in config (`reviewed`), while the file still has the reviewed content. */
function withoutReviewed(vault: Vault, findings: Finding[]): Finding[] {
  const reviewed = vault.config.reviewed;
  if (reviewed.length === 0) return findings;
  return findings.filter(
    (f) =>
      !reviewed.some(
        (r) =>
          r.file === f.file &&
          r.rule === f.ruleId &&
          (!r.sha256 || r.sha256 === sha256Hex(vault.byPath.get(f.file)?.bytes ?? new Uint8Array())),
      ),
  );
}

function internal(ruleId: string, message: string): Finding {
  return {
    ruleId: 'internal/rule-crashed',
    severity: 'error',
    file: '.',
    line: 1,
    column: 1,
    message,
    data: { rule: ruleId },
  };
}
