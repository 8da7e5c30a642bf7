/** Flag parsing for commands: node's parseArgs, with mistakes turned into one-line usage errors. */
import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

interface OptionSpec { readonly type: 'string' | 'boolean'; readonly short?: string }
type Values<T> = { [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : string };

export function parseCommandArgs<T extends Record<string, OptionSpec>>(
  command: string,
  args: string[],
  options: T,
  maxPositionals = 1,
): { values: Values<T>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${command}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`${command}: unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return { values: parsed.values as Values<T>, positionals: parsed.positionals };
}

export function oneOf<T extends string>(command: string, flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${command}: --${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
}
