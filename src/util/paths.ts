import { sep } from 'node:path';

/** Whether `candidate` is `root` or a path under it (both absolute and already real: no `..`, no links). */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}
