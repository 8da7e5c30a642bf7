import { configSchema, type Config } from './schema.js';
import { ConfigError } from '../util/errors.js';

/** Validates raw configuration; every problem in one readable line. */
export function parseConfig(raw: unknown, source: string): Config {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
    const where = i.path.length ? i.path.join('.') : '(top level)';
    return `${where}: ${i.message}`;
  });
  throw new ConfigError(`invalid config ${source}: ${issues.join('; ')}`);
}
