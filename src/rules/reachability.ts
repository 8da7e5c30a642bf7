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

/**
 * Two walks from the roots: `linked` through links, `mentioned` through links and mentions. The second starts where
 * the first ended: every file the first explored is explored by the second too, so the second takes the first's set,
 * the mentions the first passed over, and explores only the notes those reach (each file's links are read once,
 * where two full walks read them twice).
 */
export function computeReachability(vault: Vault): Reachability {
  const roots = [vault.index, vault.catalog, ...vault.secondaryIndexes].filter((f): f is VaultFile => f !== null);
  const linked = new Set<string>();
  const passed: string[] = [];
  const queue: VaultFile[] = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    for (const l of file.links) {
      if (!l.resolved) continue;
      if (l.kind === 'mention') {
        passed.push(l.resolved);
        continue;
      }
      if (linked.has(l.resolved)) continue;
      linked.add(l.resolved);
      const next = vault.byPath.get(l.resolved);
      if (next && next.role === 'note') queue.push(next);
    }
  }
  const mentioned = new Set(linked);
  const reach = (path: string): void => {
    if (mentioned.has(path)) return;
    mentioned.add(path);
    const next = vault.byPath.get(path);
    if (next && next.role === 'note') queue.push(next);
  };
  for (const path of passed) reach(path);
  while (queue.length) for (const l of queue.pop()!.links) if (l.resolved) reach(l.resolved);
  return { linked, mentioned };
}
