/**
 * A file's size and times by path, for the loops that stat every note of a vault to learn which changed (guard's
 * signature cache: 10,000 calls a write on a 10k vault). `fs.statSync` spends more in JavaScript than in the system
 * call: it validates the path and builds a `Stats` with four `Date`s (Node 20), ~11,500 instructions a call (measured:
 * 10,000 stats, 266 M instructions against 151 M for the same system calls through Node's own binding). Where the
 * runtime offers that binding (`process.binding('fs').stat`, the function `statSync` itself calls) and it answers
 * exactly as `statSync` does on a first probe, the numbers are read from it; anywhere else (another runtime or Node
 * version, Windows, `--pending-deprecation`, which would print a warning for `process.binding`), `statSync` answers.
 * The probe compares every field this module returns, so a binding whose layout changed is never used.
 */
import { statSync } from 'node:fs';
import { sep } from 'node:path';

export interface StatFields {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
}

type StatBinding = (path: string, bigint: boolean, req: undefined, throwIfNoEntry: boolean) => Float64Array | undefined;

const viaStatSync = (absPath: string): StatFields | undefined => statSync(absPath, { throwIfNoEntry: false });

/** Node's `Stats` field order (lib/internal/fs/utils.js `getStatsFromBinding`): mode 1, ino 7, size 8, mtime 12–13, ctime 14–15. */
const fromFields = (v: Float64Array): StatFields => ({
  size: v[8]!,
  mtimeMs: v[12]! * 1000 + v[13]! / 1e6,
  ctimeMs: v[14]! * 1000 + v[15]! / 1e6,
  ino: v[7]!,
  mode: v[1]!,
});

const same = (a: StatFields | undefined, b: StatFields | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.mode === b.mode);

let chosen: ((absPath: string) => StatFields | undefined) | undefined;

function binding(): StatBinding | undefined {
  if (sep !== '/' || process.execArgv.includes('--pending-deprecation')) return undefined;
  if (/--pending-deprecation/.test(process.env.NODE_OPTIONS ?? '')) return undefined;
  try {
    const b = (process as unknown as { binding?: (name: string) => { stat?: unknown } }).binding?.('fs');
    return typeof b?.stat === 'function' ? (b.stat as StatBinding) : undefined;
  } catch {
    return undefined;
  }
}

/** The binding's answer as `StatFields`, when it answers as `statSync` does for node's own executable and a missing file. */
function choose(): (absPath: string) => StatFields | undefined {
  const stat = binding();
  if (!stat) return viaStatSync;
  const fast = (absPath: string): StatFields | undefined => {
    // A NUL would cut the path short in C++; statSync refuses it (it never comes from a directory listing).
    if (absPath.includes('\0')) return viaStatSync(absPath);
    const v = stat(absPath, false, undefined, false);
    return v === undefined ? undefined : fromFields(v);
  };
  try {
    const probe = process.execPath;
    const missing = `${probe}.memlint-no-such-file`;
    const want = viaStatSync(probe);
    if (
      want !== undefined &&
      same(fast(probe), want) &&
      fast(missing) === undefined &&
      viaStatSync(missing) === undefined
    )
      return fast;
  } catch {
    /* statSync's own errors are thrown by it below */
  }
  return viaStatSync;
}

/**
 * `statSync(absPath, { throwIfNoEntry: false })`'s size, times, inode and mode: undefined when nothing is there,
 * thrown as statSync throws otherwise. `absPath` must be absolute.
 */
export function statFile(absPath: string): StatFields | undefined {
  chosen ??= choose();
  return chosen(absPath);
}

/** Which way `statFile` answers in this process (for tests): 'binding' or 'statSync'; undefined before the first call. */
export const statFileWay = (): 'binding' | 'statSync' | undefined =>
  chosen === undefined ? undefined : chosen === viaStatSync ? 'statSync' : 'binding';
