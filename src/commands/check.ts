import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkVault, type CheckOptions, type CheckResult } from '../check.js';
import { useColor, type IO } from '../io.js';
import { FORMATS, loadReporter } from '../check-formats/index.js';
import { RULE_IDS } from '../rules/index.js';
import { didYouMean, oneOf, parseCommandArgs } from '../util/args.js';
import { UsageError } from '../util/errors.js';
import { runGit } from '../util/git.js';
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
    quiet: { type: 'boolean', short: 'q' },
    rule: { type: 'string', multiple: true },
    'ignore-rule': { type: 'string', multiple: true },
    'max-warnings': { type: 'string' },
    'cache-location': { type: 'string' },
    'cache-strategy': { type: 'string' },
  });
  const format = oneOf('check', 'format', values.format, FORMATS, 'pretty');
  const kind =
    values.kind === undefined
      ? undefined
      : oneOf('check', 'kind', values.kind, ['claude', 'hermes'] as const, 'claude');
  if (values.all && positionals.length) throw new UsageError('check: give a VAULT or --all, not both');
  if (values.all && values.staged)
    throw new UsageError('check: --staged checks one vault in a git repository; it does not go with --all');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const only = ruleIds('--rule', values.rule);
  const skip = ruleIds('--ignore-rule', values['ignore-rule']);
  const maxWarnings = values['max-warnings'] === undefined ? undefined : Number(values['max-warnings']);
  if (maxWarnings !== undefined && !(Number.isInteger(maxWarnings) && maxWarnings >= 0))
    throw new UsageError(`check: --max-warnings takes a whole number of 0 or more (got '${values['max-warnings']}')`);
  mark('start');
  const options = (vaultDir: string): CheckOptions => ({
    ...(values.config ? { configFile: resolve(io.cwd, values.config) } : {}),
    ...(kind ? { kind } : {}),
    ...(values.root ? { root: resolve(io.cwd, values.root) } : {}),
    ...(values.staged ? { staged: true } : {}),
    ...(only.length || skip.length ? { rules: { only, skip } } : {}),
    ...(!values.staged && (values.cache || values['cache-location'] || values['cache-strategy'])
      ? {
          cache: {
            ...(values['cache-location'] && vaultDir === dir
              ? { location: resolve(io.cwd, values['cache-location']) }
              : {}),
            strategy: oneOf('check', 'cache-strategy', values['cache-strategy'], ['stat', 'content'] as const, 'stat'),
          },
        }
      : {}),
  });
  const full = await loadReporter(format);
  // --quiet: errors only (the summary still counts everything).
  const reporter: typeof full = values.quiet
    ? (r, c) => full({ ...r, findings: r.findings.filter((f) => f.severity === 'error') }, c)
    : full;
  // GitHub annotations name files from the repository root, wherever memlint was started.
  const ctx = { color: useColor(io, io.stdout), cwd: format === 'github' ? repositoryRoot(io, dir) : io.cwd };
  const targets = values.staged ? { many: false as const, dir } : resolveTargets('check', io, dir, Boolean(values.all));
  let results: CheckResult[];
  if (!targets.many) {
    const result = await checkVault(dir, options(dir));
    io.stdout.write(reporter(result, ctx));
    results = [result];
  } else {
    const { renderMany } = await import('../check-formats/many.js');
    const runs = [];
    for (const t of targets.targets) runs.push({ label: t.label, result: await checkVault(t.dir, options(t.dir)) });
    io.stdout.write(renderMany(format, reporter, runs, ctx));
    if (targets.loose.length && format === 'pretty')
      io.stderr.write(
        `memlint: ${targets.loose.length} markdown file(s) outside any vault were not checked (${targets.loose.slice(0, 3).join(', ')}${targets.loose.length > 3 ? ', …' : ''})\n`,
      );
    results = runs.map((r) => r.result);
  }
  mark('report');
  if (results.some((r) => r.crashed)) {
    io.stderr.write('memlint: a rule crashed; the findings above are incomplete\n');
    return 2;
  }
  if (results.some((r) => r.summary.errors > 0)) return 1;
  const warnings = results.reduce((n, r) => n + r.summary.warnings, 0);
  if (maxWarnings !== undefined && warnings > maxWarnings) {
    io.stderr.write(`memlint: ${warnings} warnings, more than --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}

function ruleIds(flag: string, ids: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const id of (ids ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    if (!RULE_IDS.includes(id)) {
      const near = didYouMean(id, RULE_IDS);
      throw new UsageError(
        `check: ${flag} ${id}: no such rule${near ? ` (did you mean ${near}?)` : ''}; 'memlint rules' lists them`,
      );
    }
    out.push(id);
  }
  return out;
}

function repositoryRoot(io: IO, dir: string): string {
  if (io.env.GITHUB_WORKSPACE) return resolve(io.cwd, io.env.GITHUB_WORKSPACE);
  try {
    return (
      runGit(statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : io.cwd, [
        'rev-parse',
        '--show-toplevel',
      ]).trim() || io.cwd
    );
  } catch {
    return io.cwd;
  }
}
