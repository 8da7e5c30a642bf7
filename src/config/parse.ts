import { didYouMean } from '../util/args.js';
import { configSchema, SEVERITIES, type Config } from './schema.js';

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}
import { ConfigError } from '../util/errors.js';

/** Validates raw configuration; every problem in one readable line. `knownRuleIds`: the rule registry's ids (RULE_IDS). */
export function parseConfig(raw: unknown, source: string, knownRuleIds: readonly string[]): Config {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) {
    const unknown = [
      ...Object.keys(result.data.rules).map((id) => [`rules.${id}`, id] as const),
      ...result.data.reviewed.map((r, i) => [`reviewed.${i}.rule`, r.rule] as const),
    ].filter(([, id]) => !knownRuleIds.includes(id));
    if (!unknown.length) return result.data;
    throw new ConfigError(
      `invalid config ${source}: ${unknown
        .map(([where, id]) => {
          const near = didYouMean(id, knownRuleIds);
          return `${where}: no rule '${id}'${near ? ` (did you mean '${near}'?)` : ''}`;
        })
        .join('; ')} ('memlint rules' lists every rule)`,
    );
  }
  const issues = result.error.issues.map((i) => {
    const where = i.path.length ? i.path.join('.') : '(top level)';
    // zod's enum message names the values; a union of them (a rule setting) does not: say them.
    const message =
      i.path[0] === 'rules' && i.code === 'invalid_union'
        ? `must be one of ${['off', ...SEVERITIES].map((v) => `"${v}"`).join(', ')} or { "severity": …, "options": {…} } (got ${JSON.stringify(valueAt(raw, i.path))})`
        : i.message;
    return `${where}: ${message}`;
  });
  throw new ConfigError(`invalid config ${source}: ${issues.join('; ')}`);
}
