import { resolve } from 'node:path';
import { checkVault, type CheckOptions, type CheckResult } from '../check.js';
import { useColor, type IO } from '../io.js';
import { FORMATS, loadReporter } from '../reporters/index.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { UsageError } from '../util/errors.js';
import { mark } from '../util/timing.js';
import { resolveTargets } from './targets.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('check', args, {
    format: { type: 'string', short: 'f' },
    config: { type: 'string', short: 'c' },
    kind: { type: 'string' },
    root: { type: 'string' },
    cache: { type: 'boolean' },
    staged: { type: 'boolean' },
    all: { type: 'boolean' },
    'cache-location': { type: 'string' },
    'cache-strategy': { type: 'string' },
  });
  const format = oneOf('check', 'format', values.format, FORMATS, 'pretty');
  const kind = values.kind === undefined ? undefined : oneOf('check', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  if (values.all && positionals.length) throw new UsageError('check: give a VAULT or --all, not both');
  if (values.all && values.staged) throw new UsageError('check: --staged checks one vault in a git repository; it does not go with --all');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  mark('start');
  const options = (vaultDir: string): CheckOptions => ({
    ...(values.config ? { configFile: resolve(io.cwd, values.config) } : {}),
    ...(kind ? { kind } : {}),
    ...(values.staged ? { staged: true } : {}),
    ...(!values.staged && (values.cache || values['cache-location'] || values['cache-strategy']) ? {
      cache: {
        ...(values['cache-location'] && vaultDir === dir ? { location: resolve(io.cwd, values['cache-location']) } : {}),
        strategy: oneOf('check', 'cache-strategy', values['cache-strategy'], ['stat', 'content'] as const, 'stat'),
      },
    } : {}),
  });
  const reporter = await loadReporter(format);
  const ctx = { color: useColor(io, io.stdout), cwd: io.cwd };
  const targets = values.staged ? { many: false as const, dir } : resolveTargets('check', io, dir, Boolean(values.all));
  let results: CheckResult[];
  if (!targets.many) {
    const result = await checkVault(dir, options(dir));
    io.stdout.write(reporter(result, ctx));
    results = [result];
  } else {
    const { renderMany } = await import('../reporters/many.js');
    const runs = [];
    for (const t of targets.targets) runs.push({ label: t.label, result: await checkVault(t.dir, options(t.dir)) });
    io.stdout.write(renderMany(format, reporter, runs, ctx));
    if (targets.loose.length && format === 'pretty') io.stderr.write(`memlint: ${targets.loose.length} markdown file(s) outside any vault were not checked (${targets.loose.slice(0, 3).join(', ')}${targets.loose.length > 3 ? ', …' : ''})\n`);
    results = runs.map((r) => r.result);
  }
  mark('report');
  if (results.some((r) => r.crashed)) {
    io.stderr.write('memlint: a rule crashed; the findings above are incomplete\n');
    return 2;
  }
  return results.some((r) => r.summary.errors > 0) ? 1 : 0;
}
