import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of memlint's own package.json, from wherever this code was bundled or compiled to. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'memlint') return dir;
      } catch {
        /* keep climbing */
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find memlint package.json');
    dir = up;
  }
}

export const cliPath = (): string => join(packageRoot(), 'dist', 'cli.js');
