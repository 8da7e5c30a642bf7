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
  const out: string[] = [...overBudget(result, color)];
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
  const counted =
    result.vault.kind === 'hermes' ? `${notes} ${notes === 1 ? 'entry' : 'entries'}` : plural(notes, unit);
  out.push(
    `${mark} ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos} info in ${counted} (${result.vault.kind} vault ${escapeControl(result.vault.root)})`,
  );
  return `${out.join('\n')}\n`;
};

/** What matters first: an index over budget, and the notes whose entries the agent never sees. */
function overBudget(result: Parameters<Reporter>[0], color: boolean): string[] {
  const info = result.vault.indexInfo;
  if (!info || info.lostEntries.length === 0 || !result.findings.some((f) => f.ruleId === 'index/over-budget'))
    return [];
  const lost = info.lostEntries;
  const notes = lost.filter((e) => e.target !== null);
  const unit = info.measure === 'utf16' ? 'UTF-16 units' : 'bytes';
  const out = [
    paint(
      color,
      31,
      `✖ ${info.file} is over budget: ${info.lines} lines, ${info.bytes} ${unit} (limits ${info.maxLines} lines, ${info.maxBytes} ${unit}); only the first ${info.loadedLines} lines load.`,
    ),
    `  ${lost.length} ${lost.length === 1 ? 'entry is' : 'entries are'} never seen by the agent, from line ${lost[0]!.line}${notes.length ? `; the notes lost first:` : ' (none of them links a note)'}`,
  ];
  const shown = notes.slice(0, 10);
  for (const e of shown) out.push(`    ${e.target}  (line ${e.line})`);
  if (notes.length > shown.length)
    out.push(`    … and ${notes.length - shown.length} more (--format json lists every one)`);
  out.push('');
  return out;
}
