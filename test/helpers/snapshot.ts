import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Every entry under a folder with its bytes (or link target), mode and mtime. */
/**
 * `mtime: 'ignore'` leaves times out. Otherwise they are recorded exactly; compare a tree that undo
 * restored with expectSameTree: utimes sets times to the microsecond (a restore lands within ~1.2 µs
 * of the original nanoseconds), so rounding both sides can still disagree at a boundary.
 */
export function snapshotTree(root: string, options: { mtime?: 'exact' | 'ms' | 'ignore' } = {}): Map<string, string> {
  const time = (ms: number): number | string => (options.mtime === 'ignore' ? '-' : ms);
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(abs)}`);
      else if (st.isDirectory()) {
        out.set(`${r}/`, `dir:${st.mode}`);
        walk(abs, r);
      } else out.set(r, `file:${st.mode}:${time(st.mtimeMs)}:${readFileSync(abs).toString('base64')}`);
    }
  };
  walk(root, '');
  return out;
}

const MTIME = /^(file:\d+):([\d.]+):/;

/** Same paths, bytes and modes exactly; the same mtimes to within a millisecond. */
export function expectSameTree(actual: Map<string, string>, expected: Map<string, string>): void {
  const strip = (m: Map<string, string>): Map<string, string> =>
    new Map([...m].map(([k, v]) => [k, v.replace(MTIME, '$1:')]));
  expect(strip(actual)).toEqual(strip(expected));
  for (const [k, v] of expected) {
    const want = MTIME.exec(v)?.[2];
    const got = MTIME.exec(actual.get(k) ?? '')?.[2];
    if (want !== undefined) expect(Math.abs(Number(got) - Number(want)), `mtime of ${k}`).toBeLessThan(1);
  }
}
