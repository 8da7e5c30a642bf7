/** MEMLINT_TIMING=1 prints how long each phase took, on stderr. */
import { writeSync } from 'node:fs';

const enabled = process.env.MEMLINT_TIMING === '1';
// The global `performance` loads perf_hooks (a start-up cost, BENCHMARKS.md `memlint guard`): touched only when timing is on.
const started = enabled ? performance.now() : 0;
let last = started;

const mb = (n: number): number => Math.round(n / 1048576);

export function mark(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  // Written at once: on a worker (consolidate, report: commands/isolate.ts) `process.stderr` reaches the terminal only
  // when the worker's event loop turns, which a synchronous run does at its end.
  writeSync(
    2,
    `memlint timing: ${phase.padEnd(18)} ${(now - last).toFixed(1).padStart(7)} ms (total ${(now - started).toFixed(1)} ms; rss ${mb(process.memoryUsage.rss())} MB, heap ${mb(process.memoryUsage().heapUsed)} MB)\n`,
  );
  last = now;
}
