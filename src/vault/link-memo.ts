/**
 * `resolveLink` without did-you-mean, memoized for one lookup: a vault has many links to few targets
 * (the hard bench vault at 10k: 204k links). A wikilink's resolution does not depend on the file that
 * holds it; a markdown link's, a definition's and a mention's depend on it only through its folder
 * (`resolvePath` reads the file's path only as `slice(0, lastIndexOf('/'))` and `posix.dirname`; a mention
 * also tries the vault root and the stem): the key holds both.
 */
import { posix } from 'node:path';
import { plainFolder, plainMention, resolveLink, type NoteLookup, type Resolved } from './resolve.js';
import type { ScannedLink } from './scan.js';
import { count } from '../util/counters.js';

export type LinkResolver = (fromPath: string, link: Pick<ScannedLink, 'kind' | 'target'>) => Resolved;

export function linkResolver(lookup: NoteLookup, vaultRoot: string): LinkResolver {
  const byTarget = new Map<string, Resolved>();
  // Per folder (its `folderKey`), per kind, by target: no key string is built per link. A file's links
  // come one after another, so the last file's folder is kept.
  const byFolder = new Map<string, Map<string, Map<string, Resolved>>>();
  let lastPath: string | null = null;
  let folder: Map<string, Map<string, Resolved>> | null = null;
  // A plain mention (`plainMention`) from a plain folder resolves as from the root unless `folder/target` is a file:
  // its answer is kept once per target (most mentions name a note in another folder: one answer for all folders).
  const mentions = new Map<string, Resolved | false>();
  let dirOf: string | null = null;
  let dir: string | null = null;
  const fromRoot = (link: Pick<ScannedLink, 'kind' | 'target'>): Resolved => {
    count('link.resolve');
    return resolveLink('', link, lookup, vaultRoot, false);
  };
  return (fromPath, link) => {
    let memo: Map<string, Resolved>;
    if (link.kind === 'wikilink') memo = byTarget;
    else {
      if (link.kind === 'mention') {
        if (fromPath !== dirOf) {
          dir = plainFolder(fromPath);
          dirOf = fromPath;
        }
        if (dir !== null) {
          let free = mentions.get(link.target);
          if (free === undefined) {
            free = plainMention(link.target) && fromRoot(link);
            mentions.set(link.target, free);
          }
          if (free !== false) {
            const rel = dir + link.target;
            if (!lookup.markdown.has(rel) && !lookup.other.has(rel)) return free;
          }
        }
      }
      if (fromPath !== lastPath || folder === null) {
        const key = folderKey(fromPath);
        folder = byFolder.get(key) ?? null;
        if (folder === null) byFolder.set(key, (folder = new Map()));
        lastPath = fromPath;
      }
      memo = folder.get(link.kind) ?? folder.set(link.kind, new Map()).get(link.kind)!;
    }
    let r = memo.get(link.target);
    if (r === undefined) {
      count('link.resolve');
      r = resolveLink(fromPath, link, lookup, vaultRoot, false);
      memo.set(link.target, r);
    }
    return r;
  };
}

/** What `resolvePath` reads of the linking file's path (for keys of link memos: here and guard's stored graph). */
export function folderKey(fromPath: string): string {
  const slash = fromPath.lastIndexOf('/');
  return slash < 0 ? '' : `${fromPath.slice(0, slash)}\u0001${posix.dirname(fromPath)}`;
}
