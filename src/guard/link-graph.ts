/**
 * The vault's link graph for an index write, from guard's signature cache instead of a vault load:
 * each note's links are kept in the cache (by size and mtime, like its signature), the notes that
 * changed are read again, and links resolve through the same lookup and `resolveLink` a vault load
 * uses (without did-you-mean: reachability needs only where a link lands). Notes are listed in
 * discovery order, as a load lists them, so a stem two notes share resolves to the same one.
 */
import type { Config } from '../config/schema.js';
import type { Discovery } from '../vault/discover.js';
import { readMarkdownFile } from '../vault/file.js';
import { stemOf } from '../vault/model.js';
import { buildLookup, type NoteLookup } from '../vault/resolve.js';
import { linkResolver } from '../vault/link-memo.js';
import { roleClassifier } from '../vault/roles.js';
import { flatLinks, type SignatureSet } from './signatures.js';

export interface LinkGraph {
  /** Where a link written in `from` lands: a vault path, null (nowhere), or 'outside' the vault. */
  resolve(from: string, kind: string, target: string): string | null | 'outside';
  /** Where the catalog's and secondary indexes' links land (they reach notes whatever MEMORY.md says). */
  otherRootTargets(): Set<string>;
  /** What `reachability()` calls linked: the starts, then every path a reached note links (mentions left out). */
  reach(start: Iterable<string>): Set<string>;
  /**
   * The notes reached from `before` and not from `after` (sorted): `reach(before)` minus `reach(after)`, walked
   * once from `after`, then from the starts of `before` it does not reach, never into what it reached (a path
   * through a node `after` reaches ends in what `after` reaches).
   */
  lostNotes(before: Iterable<string>, after: Iterable<string>): string[];
  isNote(path: string): boolean;
  /** The notes, in discovery order (graph-cache.ts stores the graph by them). */
  notes(): readonly string[];
  /** Where a note's links land (notes and other files; nowhere and outside left out), in link order. */
  out(path: string): readonly string[];
  /** The catalog's and secondary indexes' links, as read now. */
  readonly roots: readonly RootLinks[];
}

/** A catalog's or secondary index's links (kind, target, …), read whatever maxFileBytes says. */
export interface RootLinks {
  readonly from: string;
  readonly links: readonly string[];
}

/** Indexes and catalogs are read whatever maxFileBytes says (as a vault load reads them). */
const INDEX_MAX_BYTES = 256 * 1024 * 1024;

/** The catalog's and secondary indexes' links, read now (they are not notes: no cache holds them). */
export function readRoots(found: Discovery, roleOf: (path: string) => string): RootLinks[] {
  const roots: RootLinks[] = [];
  for (const f of found.markdown) {
    const role = roleOf(f.path);
    if (role !== 'catalog' && role !== 'secondary-index') continue;
    try {
      roots.push({
        from: f.path,
        links: flatLinks(readMarkdownFile(f.path, f.absPath, role, INDEX_MAX_BYTES).scan.links),
      });
    } catch {
      continue;
    }
  }
  return roots;
}

export function linkGraph(root: string, config: Config, found: Discovery, sigs: SignatureSet): LinkGraph {
  const roleOf = roleClassifier(config, 'claude');
  const unreadable = new Set(sigs.unreadable);
  const source = new Map<string, { name: () => string | null; links: () => readonly string[] }>();
  const { table } = sigs;
  if (table)
    for (const i of sigs.valid) {
      const n = table.note(i);
      source.set(n.path, { name: () => n.meta().name, links: n.links });
    }
  for (const n of sigs.fresh) source.set(n.path, { name: () => n.meta().name, links: n.links });
  for (const n of sigs.unsigned) source.set(n.path, { name: () => n.name, links: () => n.links });
  const markdown: string[] = [];
  const other = [...found.other];
  const notes: { path: string; stem: string; name: string | null }[] = [];
  const linksOf = new Map<string, () => readonly string[]>();
  const roots = readRoots(found, roleOf);
  // A catalog that cannot be read is left out of the lookup too (as a vault load leaves it out).
  const readRoot = new Set(roots.map((r) => r.from));
  for (const f of found.markdown) {
    const role = roleOf(f.path);
    if (role === 'ignored') {
      other.push(f.path);
      continue;
    }
    if (role === 'note') {
      const s = source.get(f.path);
      if (!s || unreadable.has(f.path)) continue;
      notes.push({ path: f.path, stem: stemOf(f.path), name: s.name() });
      linksOf.set(f.path, s.links);
    } else if ((role === 'catalog' || role === 'secondary-index') && !readRoot.has(f.path)) continue;
    markdown.push(f.path);
  }
  const lookup: NoteLookup = buildLookup(notes, markdown, other);
  // Each distinct link resolved once (src/vault/link-memo.ts: a wikilink by target, anything else by the
  // linking file's folder): the hard bench shape's 10k notes hold 120k wikilinks to 26k targets, and the
  // index before and after a write shares most of its links.
  const resolver = linkResolver(lookup, root);
  const resolve = (from: string, kind: string, target: string): string | null | 'outside' => {
    const r = resolver(from, { kind: kind as 'markdown', target });
    return r.resolution === 'outside' ? 'outside' : r.resolved;
  };
  const targets = (from: string, flat: readonly string[], into: Set<string> | string[]): void => {
    for (let k = 0; k + 1 < flat.length; k += 2) {
      const r = resolve(from, flat[k]!, flat[k + 1]!);
      if (r && r !== 'outside') {
        if (into instanceof Set) into.add(r);
        else into.push(r);
      }
    }
  };
  // A note's resolved links, shared by the walks before and after the write.
  const resolved = new Map<string, string[]>();
  const out = (path: string): readonly string[] => {
    let r = resolved.get(path);
    if (!r) {
      r = [];
      targets(path, linksOf.get(path)!(), r);
      resolved.set(path, r);
    }
    return r;
  };
  return {
    resolve,
    otherRootTargets: () => {
      const s = new Set<string>();
      for (const r of roots) targets(r.from, r.links, s);
      return s;
    },
    reach: (start) => {
      const seen = new Set<string>();
      const queue: string[] = [];
      for (const p of start)
        if (!seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      while (queue.length) {
        const p = queue.pop()!;
        if (!linksOf.has(p)) continue; // not a note: reached, not followed
        for (const t of out(p))
          if (!seen.has(t)) {
            seen.add(t);
            queue.push(t);
          }
      }
      return seen;
    },
    lostNotes(before, after) {
      const kept = this.reach(after);
      const lost = new Set<string>();
      const queue: string[] = [];
      for (const p of before)
        if (!kept.has(p) && !lost.has(p)) {
          lost.add(p);
          queue.push(p);
        }
      while (queue.length) {
        const p = queue.pop()!;
        if (!linksOf.has(p)) continue;
        for (const t of out(p))
          if (!kept.has(t) && !lost.has(t)) {
            lost.add(t);
            queue.push(t);
          }
      }
      return [...lost].filter((p) => linksOf.has(p)).sort();
    },
    isNote: (p) => linksOf.has(p),
    notes: () => notes.map((n) => n.path),
    out,
    roots,
  };
}
