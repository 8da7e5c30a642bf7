/**
 * A command that may need a lot of memory (consolidate, report) runs on a worker thread of the same process, so
 * that running out of V8's heap ends in one line and exit code 2 instead of Node's fatal-error trace: V8 stops a
 * worker that reaches its heap limit and the main thread is told (`ERR_WORKER_OUT_OF_MEMORY`); the main thread's
 * own heap limit, reached, ends the process with a trace nothing can catch. The worker runs the same CLI entry with
 * the same arguments and writes to the same descriptors; the main thread only waits for its exit code.
 * Costs ~20–30 ms of start-up, which a command that reads and compares the whole vault does not notice; `check` and
 * `guard` (hook paths) never run here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Writable } from '../io.js';

/** The commands run on a worker (the CLI only; the library runs everything where it is called). */
export const ISOLATED: ReadonlySet<string> = new Set(['consolidate', 'report']);

/** The CLI's entry beside this module: the bundle's loader, or the tsc build's `cli.js`. */
function entryFile(): string | null {
  const here = import.meta.url;
  const file = fileURLToPath(new URL(here.endsWith('.cjs') ? './load.cjs' : '../cli.js', here));
  return existsSync(file) ? file : null;
}

/** The one line for a run that ran out of heap. */
export function outOfMemoryLine(command: string, heapLimitBytes: number): string {
  const mb = Math.round(heapLimitBytes / 2 ** 20);
  return (
    `memlint: ${command}: out of memory: the run needed more than the ${mb.toLocaleString('en-US')} MB heap Node ` +
    `allows and was stopped; nothing was written. Run it on part of the vault, or raise the limit: ` +
    `NODE_OPTIONS=--max-old-space-size=${Math.max(8192, 2 ** Math.ceil(Math.log2(mb + 1)))} memlint ${command} …\n`
  );
}

/**
 * What the main thread prints when its worker ends in an error: out of heap, the one line; anything else that escaped
 * the command's own handling (main.ts), one line as main.ts prints an internal error (the stack with `--debug`).
 */
export function workerErrorText(e: Error & { code?: string }, command: string, argv: readonly string[]): string {
  if (e.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return outOfMemoryLine(command, process.getBuiltinModule('node:v8').getHeapStatistics().heap_size_limit);
  const debug = argv.includes('--debug');
  const line = String(e.message).split('\n')[0];
  return (
    `memlint: internal error: ${line}${debug ? '' : ' (run again with --debug for the stack trace)'}\n` +
    (debug && e.stack ? `${e.stack}\n` : '')
  );
}

/**
 * Runs the CLI with `argv` (whose command is `command`) on a worker thread and resolves to its exit code; null when it
 * cannot (already on a worker or `MEMLINT_ISOLATE=0`, no entry file, the worker could not start): the caller then
 * runs the command itself.
 */
export function runIsolated(
  command: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  stderr: Writable,
): Promise<number> | null {
  // The worker runs with MEMLINT_ISOLATE=0: it runs the command itself (and names its code cache apart:
  // scripts/bin-loader.cjs). Reading the variable is cheaper than loading `node:worker_threads` to ask.
  if (env.MEMLINT_ISOLATE === '0') return null;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const file = entryFile();
  if (!file) return null;
  let worker: InstanceType<typeof Worker>;
  try {
    worker = new Worker(file, { argv: [...argv], env: { ...env, MEMLINT_ISOLATE: '0' }, stdout: false, stderr: false });
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    let failed = false;
    worker.on('error', (e: Error & { code?: string }) => {
      failed = true;
      stderr.write(workerErrorText(e, command, argv));
    });
    worker.on('exit', (code) => resolve(failed ? 2 : code));
  });
}
