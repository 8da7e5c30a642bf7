/** VAULT/.memlint/cache/: made on first use with a `.gitignore` of `*`, so no cache is ever committed. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function ensureCacheDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Made by memlint: caches are rebuilt when missing; never commit them.\n*\n');
}
