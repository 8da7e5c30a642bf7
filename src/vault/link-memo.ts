/**
 * `resolveLink` without did-you-mean, memoized for one lookup: a vault has many links to few targets
 * (the hard bench vault at 10k: 204k links). A wikilink's resolution does not depend on the file that
 * holds it; a markdown link's, a definition's and a mention's depend on it only through its folder
 * (`resolvePath` reads the file's path only as `slice(0, lastIndexOf('/'))` and `posix.dirname`; a mention
 * also tries the vault root and the stem): the key holds both.
 */
import { posix } from 'node:path';
import { resolveLink, type NoteLookup, type Resolved } from './resolve.js';
import type { ScannedLink } from './scan.js';
import { count } from '../util/counters.js';

export type LinkResolver = (fromPath: string, link: Pick<ScannedLink, 'kind' | 'target'>) => Resolved;

export function linkResolver(lookup: NoteLookup, vaultRoot: string): LinkResolver {
  const byTarget = new Map<string, Resolved>();
  const byFolder = new Map<string, Resolved>();
  return (fromPath, link) => {
    const wiki = link.kind === 'wikilink';
    const memo = wiki ? byTarget : byFolder;
    const key = wiki ? link.target : `${folderKey(fromPath)}\0${link.kind}\0${link.target}`;
    let r = memo.get(key);
    if (r === undefined) {
      count('link.resolve');
      r = resolveLink(fromPath, link, lookup, vaultRoot, false);
      memo.set(key, r);
    }
    return r;
  };
}

/** What `resolvePath` reads of the linking file's path (for keys of link memos: here and guard's stored graph). */
export function folderKey(fromPath: string): string {
  const slash = fromPath.lastIndexOf('/');
  return slash < 0 ? '' : `${fromPath.slice(0, slash)}\u0001${posix.dirname(fromPath)}`;
}
