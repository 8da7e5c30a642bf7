import { resolve } from 'node:path';
import { checkVault } from '../check.js';
import { useColor, type IO } from '../io.js';
import { FORMATS, loadReporter } from '../reporters/index.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { mark } from '../util/timing.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('check', args, {
    format: { type: 'string', short: 'f' },
    config: { type: 'string', short: 'c' },
    kind: { type: 'string' },
    root: { type: 'string' },
    cache: { type: 'boolean' },
    staged: { type: 'boolean' },
    'cache-location': { type: 'string' },
    'cache-strategy': { type: 'string' },
  });
  const format = oneOf('check', 'format', values.format, FORMATS, 'pretty');
  const kind = values.kind === undefined ? undefined : oneOf('check', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  mark('start');
  const result = await checkVault(dir, {
    ...(values.config ? { configFile: resolve(io.cwd, values.config) } : {}),
    ...(kind ? { kind } : {}),
    ...(values.staged ? { staged: true } : {}),
    ...(!values.staged && (values.cache || values['cache-location'] || values['cache-strategy'] ? {
      cache: {
        ...(values['cache-location'] ? { location: resolve(io.cwd, values['cache-location']) } : {}),
        strategy: oneOf('check', 'cache-strategy', values['cache-strategy'], ['stat', 'content'] as const, 'stat'),
      },
    } : {})),
  });
  const reporter = await loadReporter(format);
  io.stdout.write(reporter(result, { color: useColor(io, io.stdout), cwd: io.cwd }));
  mark('report');
  if (result.crashed) {
    io.stderr.write('memlint: a rule crashed; the findings above are incomplete\n');
    return 2;
  }
  return result.summary.errors > 0 ? 1 : 0;
}
