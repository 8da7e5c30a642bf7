/** What apply prints: every item's fate, and under each item the moves and unified diffs. */
import { createTwoFilesPatch } from 'diff';
import { maskSecrets } from '../rules/security/secret.js';
import { HOLDING, type FileChange } from './compose.js';
import type { Plan } from './plan.js';

const decoder = new TextDecoder('utf-8', { fatal: false });
/** Shown text: a diff is read by people and logs, so credentials in it are masked (the files keep them). */
const text = (c: FileChange['before']): string => (c ? maskSecrets(decoder.decode(c.bytes)) : '');

export function describeChange(c: FileChange): string {
  if (c.before && !c.after) return `  retire ${c.path} (moved to ${HOLDING}/<run-id>/)`;
  if (!c.before && c.after && c.path.startsWith(`${HOLDING}/`)) return `  create ${c.path}`;
  const patch = createTwoFilesPatch(`a/${c.path}`, `b/${c.path}`, text(c.before), text(c.after), undefined, undefined, {
    context: 2,
  });
  const mode =
    c.before && c.after && c.before.mode !== c.after.mode
      ? ` (mode ${c.before.mode.toString(8)} → ${c.after.mode.toString(8)})`
      : '';
  return (
    patch
      .split('\n')
      .slice(1)
      .map((l) => `  ${l}`)
      .join('\n')
      .trimEnd() + mode
  );
}

export function formatPlan(plan: Plan, options: { dryRun: boolean }): string {
  const out: string[] = [];
  out.push(`${options.dryRun ? 'Dry run: nothing is changed.' : `Run ${plan.runId}`} Vault ${plan.vault}`);
  out.push('');
  for (const item of plan.items) {
    const label = item.status === 'run' ? (options.dryRun ? 'will run' : 'ran') : item.status;
    out.push(`${item.id} ${item.kind} (${item.action}): ${label}${item.reason ? ` — ${item.reason}` : ''}`);
    if (item.summary) out.push(`  ${item.summary}`);
    for (const w of item.warnings) out.push(`  warning: ${w}`);
    const changes = plan.changes.filter((c) => c.item === item.id && !c.path.startsWith(`${HOLDING}/`));
    for (const c of changes) out.push(describeChange(c));
  }
  const index = plan.changes.filter((c) => c.item === 'index' || c.item === 'catalog');
  if (index.length) {
    out.push('index and catalog:');
    for (const c of index) out.push(describeChange(c));
  }
  const counts = (s: string): number => plan.items.filter((i) => i.status === s).length;
  out.push('');
  out.push(
    `${counts('run')} to run, ${counts('done')} with nothing to change, ${counts('skipped')} skipped, ${counts('refused')} refused; ${plan.changes.length} file change(s).`,
  );
  if (options.dryRun) out.push(plan.changes.length ? 'Run again with --execute to do it.' : 'Nothing would change.');
  return `${out.join('\n')}\n`;
}
