/** Findings grouped by file, like vfile-reporter; one summary line at the end. */
import type { Finding } from '../rules/types.js';
import type { Reporter } from './types.js';
import { escapeControl } from '../util/control.js';

const paint = (on: boolean, code: number, s: string): string => (on ? `\u001b[${code}m${s}\u001b[39m` : s);
const LABEL = { error: 'error', warning: 'warning', info: 'info' } as const;
const COLOR = { error: 31, warning: 33, info: 36 } as const;

export const pretty: Reporter = (result, { color }) => {
  const byFile = new Map<string, Finding[]>();
  for (const f of result.findings) {
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  const out: string[] = [];
  for (const [file, findings] of byFile) {
    out.push(color ? `\u001b[4m${escapeControl(file)}\u001b[24m` : escapeControl(file));
    const place = findings.map((f) => `${f.line}:${f.column}`);
    const width = Math.max(...place.map((p) => p.length));
    findings.forEach((f, i) => {
      const sev = paint(color, COLOR[f.severity], LABEL[f.severity].padEnd(7));
      out.push(`  ${place[i]!.padEnd(width)}  ${sev}  ${escapeControl(f.message)}  ${paint(color, 90, f.ruleId)}`);
    });
    out.push('');
  }
  const { errors, warnings, infos, notes } = result.summary;
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  const mark = errors ? paint(color, 31, '✖') : warnings ? paint(color, 33, '⚠') : paint(color, 32, '✔');
  const unit = result.vault.kind === 'hermes' ? 'entr' : 'note';
  const counted = result.vault.kind === 'hermes' ? `${notes} ${notes === 1 ? 'entry' : 'entries'}` : plural(notes, unit);
  out.push(`${mark} ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos} info in ${counted} (${result.vault.kind} vault ${escapeControl(result.vault.root)})`);
  return `${out.join('\n')}\n`;
};
