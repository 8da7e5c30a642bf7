/**
 * The configuration used when a vault has no config file, as a plain literal so that check and
 * guard do not load zod (its load time: BENCHMARKS.md, `memlint check`) unless there is a file to validate. test/config.test.ts keeps it
 * equal to `configSchema.parse({})`.
 */
import type { Config } from './schema.js';

export const DEFAULT_CONFIG: Config = deepFreeze({
  index: { file: 'MEMORY.md', maxLines: 200, maxBytes: 25_000, headroom: 0.9, measure: 'utf16' },
  catalog: { file: 'CATALOG.md', required: false },
  secondaryIndexes: [],
  ignore: [],
  types: ['user', 'feedback', 'project', 'reference'],
  maxFileBytes: 2_000_000,
  hermes: { budgets: { 'MEMORY.md': 2200, 'USER.md': 1375 }, nearBudget: 0.8 },
  guard: { refuse: 0.6, show: 0.35, cache: true },
  review: { timeoutMs: 60_000, concurrency: 2 },
  consolidate: { propose: {} },
  commitProposals: false,
  rules: {},
  reviewed: [],
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
