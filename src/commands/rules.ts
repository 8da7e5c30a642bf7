import type { IO } from '../io.js';
import { RULES } from '../rules/index.js';
import { oneOf, parseCommandArgs } from '../util/args.js';

export function rulesMarkdown(): string {
  const rows = RULES.map(
    (r) =>
      `| \`${r.id}\` | ${r.meta.severity} | ${r.meta.docs.why.replace(/\|/g, '\\|')} | ${r.meta.docs.fix.replace(/\|/g, '\\|')} |`,
  );
  return ['| id | default | why it matters | how to fix |', '| --- | --- | --- | --- |', ...rows, ''].join('\n');
}

export async function run(args: string[], io: IO): Promise<number> {
  const { values } = parseCommandArgs('rules', args, { format: { type: 'string' } }, 0);
  const format = oneOf('rules', 'format', values.format, ['text', 'json', 'markdown'] as const, 'text');
  if (format === 'json') {
    io.stdout.write(
      `${JSON.stringify(
        RULES.map((r) => ({
          id: r.id,
          severity: r.meta.severity,
          description: r.meta.description,
          why: r.meta.docs.why,
          fix: r.meta.docs.fix,
          kinds: r.meta.kinds,
        })),
        null,
        2,
      )}\n`,
    );
  } else if (format === 'markdown') {
    io.stdout.write(rulesMarkdown());
  } else {
    for (const r of RULES) io.stdout.write(`${r.id.padEnd(28)} ${r.meta.severity.padEnd(8)} ${r.meta.description}\n`);
  }
  return 0;
}
