/** Several vaults in one run (a folder of vaults, `--all`): each vault's report, then one summary table. */
import type { CheckResult } from '../check.js';
import { toJsonReport } from '../check.js';
import { VERSION } from '../version.js';
import type { Format } from './index.js';
import type { Reporter, ReporterContext } from './types.js';

export interface VaultRun {
  readonly label: string;
  readonly result: CheckResult;
}

export function totals(runs: readonly VaultRun[]): {
  vaults: number;
  notes: number;
  errors: number;
  warnings: number;
  infos: number;
} {
  const t = { vaults: runs.length, notes: 0, errors: 0, warnings: 0, infos: 0 };
  for (const {
    result: { summary: s },
  } of runs) {
    t.notes += s.notes;
    t.errors += s.errors;
    t.warnings += s.warnings;
    t.infos += s.infos;
  }
  return t;
}

export function summaryTable(runs: readonly VaultRun[], color: boolean): string {
  const head = ['vault', 'kind', 'notes', 'errors', 'warnings', 'infos'];
  const rows = runs.map(({ label, result: r }) => [
    label,
    r.vault.kind,
    String(r.summary.notes),
    String(r.summary.errors),
    String(r.summary.warnings),
    String(r.summary.infos),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const t = totals(runs);
  const withErrors = runs.filter((r) => r.result.summary.errors > 0).length;
  const paint = (code: number, s: string): string => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const mark = t.errors ? paint(31, '✖') : t.warnings ? paint(33, '⚠') : paint(32, '✔');
  return [
    line(head),
    ...rows.map(line),
    '',
    `${mark} ${t.vaults} vault${t.vaults === 1 ? '' : 's'} (${withErrors} with errors): ${t.errors} errors, ${t.warnings} warnings, ${t.infos} info in ${t.notes} notes`,
    '',
  ].join('\n');
}

export function renderMany(
  format: Format,
  reporter: Reporter,
  runs: readonly VaultRun[],
  ctx: ReporterContext,
): string {
  if (format === 'json') {
    return `${JSON.stringify({ tool: 'memlint', version: VERSION, summary: totals(runs), vaults: runs.map((r) => ({ label: r.label, ...toJsonReport(r.result) })) }, null, 2)}\n`;
  }
  if (format === 'sarif') {
    const docs = runs.map((r) => JSON.parse(reporter(r.result, ctx)) as { runs: unknown[] });
    return `${JSON.stringify({ ...docs[0], runs: docs.flatMap((d) => d.runs) }, null, 2)}\n`;
  }
  if (format === 'github') return runs.map((r) => reporter(r.result, ctx)).join('');
  const rule = (label: string): string => (ctx.color ? `\u001b[1m── ${label}\u001b[22m` : `── ${label}`);
  return `${runs.map((r) => `${rule(r.label)}\n${reporter(r.result, ctx)}`).join('\n')}\n${summaryTable(runs, ctx.color)}`;
}
