import type { Vault, VaultFile } from '../vault/model.js';

/** Files that could be parsed as markdown at all. */
export const isReadable = (f: VaultFile): boolean => f.problem === null || f.problem.kind === 'invalid-utf8';

/**
 * Whether a file is held to the rules for notes. In a vault where notes carry front matter, a file
 * without any (README.md, a session log) is reported once by note/no-frontmatter instead.
 */
const underRulesCache = new WeakMap<Vault, readonly VaultFile[]>();

export function notesUnderRules(vault: Vault): readonly VaultFile[] {
  let cached = underRulesCache.get(vault);
  if (!cached) {
    const readable = vault.notes.filter(isReadable);
    const anyFrontmatter = readable.some((n) => n.frontmatter !== null);
    cached = Object.freeze(anyFrontmatter ? readable.filter((n) => n.frontmatter !== null) : readable);
    underRulesCache.set(vault, cached);
  }
  return cached;
}

export interface Reachability {
  readonly linked: ReadonlySet<string>;
  readonly mentioned: ReadonlySet<string>;
}
const reachabilityCache = new WeakMap<Vault, Reachability>();

/** Notes reachable from the index, catalog and secondary indexes through links (and, weakly, mentions). */
export function reachability(vault: Vault): Reachability {
  let cached = reachabilityCache.get(vault);
  if (!cached) {
    cached = computeReachability(vault);
    reachabilityCache.set(vault, cached);
  }
  return cached;
}

function computeReachability(vault: Vault): Reachability {
  const roots = [vault.index, vault.catalog, ...vault.secondaryIndexes].filter((f): f is VaultFile => f !== null);
  const walk = (withMentions: boolean): Set<string> => {
    const seen = new Set<string>();
    const queue: VaultFile[] = [...roots];
    while (queue.length) {
      const file = queue.pop()!;
      for (const l of file.links) {
        if (!l.resolved || (l.kind === 'mention' && !withMentions) || seen.has(l.resolved)) continue;
        seen.add(l.resolved);
        const next = vault.byPath.get(l.resolved);
        if (next && next.role === 'note') queue.push(next);
      }
    }
    return seen;
  };
  return { linked: walk(false), mentioned: walk(true) };
}
