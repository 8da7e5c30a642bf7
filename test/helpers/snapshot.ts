import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry under a folder with its bytes (or link target), mode and mtime. */
/**
 * `mtime: 'ms'` rounds times to the millisecond: undo restores them through utimes, which keeps
 * microseconds, not the file system's nanoseconds.
 */
export function snapshotTree(root: string, options: { mtime?: 'exact' | 'ms' | 'ignore' } = {}): Map<string, string> {
  const time = (ms: number): number | string => (options.mtime === 'ms' ? Math.round(ms) : options.mtime === 'ignore' ? '-' : ms);
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(abs)}`);
      else if (st.isDirectory()) { out.set(`${r}/`, `dir:${st.mode}`); walk(abs, r); }
      else out.set(r, `file:${st.mode}:${time(st.mtimeMs)}:${readFileSync(abs).toString('base64')}`);
    }
  };
  walk(root, '');
  return out;
}
