/**
 * A wall-clock bound for the hook (issue 16): guard's work is synchronous, so it checks the clock
 * between units of work (notes read, matches compared) and stops with `GuardTimeout`, which the hook
 * turns into one line on stderr and an unchecked write. Date.now(): no perf_hooks to load.
 */
export class GuardTimeout extends Error {}

/** Epoch milliseconds after which guard stops, or undefined (no bound). */
export type Deadline = number | undefined;

export function checkDeadline(deadline: Deadline, what: string): void {
  if (deadline !== undefined && Date.now() > deadline) throw new GuardTimeout(`stopped ${what}`);
}

/** The hook's bound when none is given: far below Claude Code's own 60 s hook timeout. */
export const HOOK_TIMEOUT_MS = 5000;
