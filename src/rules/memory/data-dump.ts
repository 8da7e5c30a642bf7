import type { z } from 'zod';
import { defineRule } from '../types.js';
import { lazySchema } from '../../util/lazy-zod.js';
import { linesOf, unitsOf, type Unit } from './units.js';

const optionsSchema = lazySchema((z) =>
  z
    .object({
      minChars: z
        .number()
        .int()
        .positive()
        .default(1200)
        .describe('Characters of code, logs, traces and tables a note must hold to be reported.'),
      minShare: z.number().gt(0).lte(1).default(0.6).describe('Share of the body those lines must make up.'),
    })
    .strict(),
);

type Options = z.infer<ReturnType<typeof optionsSchema>>;
/** What the schema gives for `{}` (test/registry.test.ts checks it): the engine uses it without loading zod. */
const DEFAULTS: Options = { minChars: 1200, minShare: 0.6 };
export type DumpKind = 'code' | 'log' | 'trace' | 'table';

const TABLE = /^\s*\|.*\|\s*$/;
const LOG =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?[\s:]|\d{2}:\d{2}:\d{2}[.,]\d{3}\s)/;
const TRACE =
  /^\s*(?:at [\w$.<>[\]/-]+ ?\(?[^)]*:\d+(?::\d+)?\)?$|File "[^"]+", line \d+|Traceback \(most recent call last\)|\w+(?:\.\w+)*(?:Error|Exception): |goroutine \d+ \[|#\d+ 0x[0-9a-f]+ in )/;

export interface DumpMeasure {
  readonly chars: number;
  readonly dumpChars: number;
  readonly kinds: Readonly<Record<DumpKind, number>>;
  /** Offset of the first dumped line. */
  readonly first: number;
}

/** Characters of the unit's non-blank lines, and how many of them are code, log, trace or table lines. */
export function measureDump(u: Unit): DumpMeasure {
  const blocks = u.codeRanges.filter(([s, e]) => u.file.text.slice(s, e).includes('\n'));
  const kinds: Record<DumpKind, number> = { code: 0, log: 0, trace: 0, table: 0 };
  let chars = 0,
    dumpChars = 0,
    first = -1,
    b = 0;
  for (const line of linesOf(u)) {
    const len = line.text.trim().length;
    if (len === 0) continue;
    chars += len;
    while (b < blocks.length && blocks[b]![1] <= line.start) b++;
    const block = blocks[b];
    const kind: DumpKind | null = TRACE.test(line.text)
      ? 'trace'
      : LOG.test(line.text)
        ? 'log'
        : block && block[0] <= line.start && line.start < block[1]
          ? 'code'
          : TABLE.test(line.text)
            ? 'table'
            : null;
    if (!kind) continue;
    kinds[kind] += len;
    dumpChars += len;
    if (first === -1) first = line.start;
  }
  return { chars, dumpChars, kinds, first };
}

export function isDump(m: DumpMeasure, o: Options): boolean {
  return m.dumpChars >= o.minChars && m.dumpChars >= m.chars * o.minShare;
}

export const DUMP_DEFAULTS: Options = DEFAULTS;

const describeKinds = (m: DumpMeasure): string =>
  (Object.entries(m.kinds) as [DumpKind, number][])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k]) => (k === 'log' ? 'log lines' : k === 'trace' ? 'stack traces' : k === 'table' ? 'tables' : k))
    .join(', ');

export function dumpsIn(units: readonly Unit[], o: Options): { unit: Unit; m: DumpMeasure }[] {
  const out: { unit: Unit; m: DumpMeasure }[] = [];
  for (const unit of units) {
    // The dumped characters are some of the unit's: a smaller unit cannot reach the threshold.
    if (unit.end - unit.start < o.minChars) continue;
    const m = measureDump(unit);
    if (isDump(m, o)) out.push({ unit, m });
  }
  return out;
}

export default defineRule<Options>({
  id: 'memory/data-dump',
  meta: {
    description: 'A note or store entry that is mostly code, log lines, stack traces or tables.',
    severity: 'info',
    tags: ['memory', 'budget'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Both memory designs say data dumps do not belong in memory: the agent can re-read the code, log or table where it lives, and a dump spends the context budget of every session it is loaded into while burying the one rule it was saved for.',
      fix: 'Keep the rule or fact the dump was saved for (one or two sentences) and point to where the data lives; or retire the note. To keep one note as it is, add `{ "file": "<note>", "rule": "memory/data-dump", "reason": "…" }` to `reviewed` in the config.',
    },
    messages: {
      dump: '{share}% of {unit} ({dumpChars} of {chars} characters) is {kinds}: memory should keep the rule, not the data',
    },
    get options() {
      return optionsSchema();
    },
    defaults: DEFAULTS,
  },
  checkFile(file, { options, report }) {
    for (const { unit, m } of dumpsIn(unitsOf(file), options)) {
      const share = Math.round((100 * m.dumpChars) / m.chars);
      const entry = unit.label === file.path ? 'this note' : `entry ${unit.label.slice(file.path.length + 1)}`;
      report({
        messageId: 'dump',
        file,
        offset: unit.start,
        data: { unit: entry, share, dumpChars: m.dumpChars, chars: m.chars, kinds: describeKinds(m), ...m.kinds },
      });
    }
  },
});
