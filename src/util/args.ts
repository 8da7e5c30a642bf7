/** Flag parsing for commands: node's parseArgs, with mistakes turned into one-line usage errors. */
import { parseArgs } from 'node:util';
import { editDistance } from './edit-distance.js';
import { UsageError } from './errors.js';

interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
}
type Values<T> = {
  [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : T[K] extends { multiple: true } ? string[] : string;
};

/** The closest of `candidates` to `word` (a typo's likely meaning), or null when none is close. */
export function didYouMean(word: string, candidates: readonly string[]): string | null {
  const max = Math.max(2, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestD = max + 1;
  for (const c of candidates) {
    const d = editDistance(word, c, max);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

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
    const err = e as Error & { code?: string };
    const help = `run 'memlint ${command} --help' for the options`;
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec(err.message)?.[1] ?? '';
      const near = flag.startsWith('--') ? didYouMean(flag.slice(2).split('=')[0]!, Object.keys(options)) : null;
      throw new UsageError(`${command}: unknown option '${flag}'${near ? ` (did you mean --${near}?)` : ''}; ${help}`);
    }
    throw new UsageError(`${command}: ${err.message.split('\n')[0]}; ${help}`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(
      `${command}: unexpected argument '${parsed.positionals[maxPositionals]}'; run 'memlint ${command} --help' for the usage`,
    );
  }
  return { values: parsed.values as Values<T>, positionals: parsed.positionals };
}

export function oneOf<T extends string>(
  command: string,
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${command}: --${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
}
