import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { missing } from './ci.js';

/** ../shared/corpus beside the checkout (CI lays a copy of shared/ next to the clone). */
export const CORPUS = resolve(process.cwd(), '..', 'shared', 'corpus');
/** False locally when the corpus is absent (its tests skip); in CI (CI=true) importing this file then throws instead. */
export const hasCorpus = !missing(existsSync(CORPUS), `the corpus (${CORPUS})`);

export function corpusVaults(kind: 'claude' | 'hermes'): string[] {
  const dir = join(CORPUS, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((d) => join(dir, d));
}

export function markdownFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
