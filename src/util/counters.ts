/**
 * Counters of pairwise work (edit distances, candidate pairs, clause comparisons), for the scaling
 * test that proves no path is quadratic. Off by default: `count()` is one boolean test and a return.
 * Turn on with `startCounting()` (tests) or `MEMLINT_COUNTERS=1` (prints them on stderr at exit).
 *
 * Usage at a hot site: `if (counting) count('resolve.editDistance');` or just `count(name)`; both cost
 * nothing measurable when counting is off. Names are `area.what` (e.g. `consolidate.clausePairs`).
 */
import { writeSync } from 'node:fs';
export let counting = process.env.MEMLINT_COUNTERS === '1';
const totals = new Map<string, number>();

export function count(name: string, by = 1): void {
  if (!counting) return;
  totals.set(name, (totals.get(name) ?? 0) + by);
}

/** Reset every counter and turn counting on. */
export function startCounting(): void {
  totals.clear();
  counting = true;
}

/** Turn counting off and return what was counted since `startCounting()`. */
export function stopCounting(): Record<string, number> {
  counting = false;
  return snapshot();
}

export function snapshot(): Record<string, number> {
  return Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

if (counting) {
  process.on('exit', () => {
    // Written at once, as timing.ts does (a worker's `process.stderr` is a stream flushed by its event loop).
    for (const [k, v] of Object.entries(snapshot())) writeSync(2, `memlint counter: ${k} ${v}\n`);
  });
}
