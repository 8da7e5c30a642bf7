/** GitHub Actions workflow commands: one annotation per finding. */
import { join, relative, sep } from 'node:path';
import type { Reporter } from './types.js';
import { escapeControl } from '../util/control.js';

// Newlines as GitHub's %0A; every other control character (ESC…) as \xNN, never raw.
const escapeData = (s: string): string =>
  escapeControl(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

export const github: Reporter = (result, { cwd }) => {
  const lines = result.findings.map((f) => {
    const file = relative(cwd, join(result.vault.root, f.file)).split(sep).join('/');
    const props = [`file=${escapeProperty(file)}`, `line=${f.line}`, `col=${f.column}`];
    if (f.endLine !== undefined) props.push(`endLine=${f.endLine}`);
    props.push(`title=${escapeProperty(f.ruleId)}`);
    return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(f.message)}`;
  });
  const { errors, warnings, infos, notes } = result.summary;
  lines.push(`memlint: ${errors} errors, ${warnings} warnings, ${infos} info in ${notes} notes`);
  return `${lines.join('\n')}\n`;
};
