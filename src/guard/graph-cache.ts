/**
 * The vault's resolved link graph kept between index writes, VAULT/.memlint/cache/guard-graph-v1.bin.
 * An index write that removes a link walks what is reachable before and after it (index-target.ts
 * linkChanges); on a topical 10k vault building that graph (every note's links decoded from the
 * signature cache and resolved, 120k of them) was most of the write (issue 14). Stored: the notes in
 * discovery order with the size and mtime each had, every note's resolved links as integer arrays
 * (CSR: offsets into one edge list), and how the links of the index, the catalog and the secondary
 * indexes resolved in the call that stored it (`memo`).
 *
 * Used only while everything the graph was computed from is the same, so that its answers are the
 * ones a graph built now would give: the same build, vault root and settings that classify files,
 * the same listing (every markdown path with how it was reached, every other path), the same
 * signature cache files (size, mtime, ctime, inode of the table and its delta: the graph's links and names come from them), and
 * every note with the size and mtime it had (what the signature cache itself checks). It is stored
 * only by a call whose graph came from an unchanged signature cache that it did not rewrite, with
 * every note read (no note unreadable or unsigned). A link the memo does not hold builds the full
 * graph then (the answer is the same, only slower). Corrupt or foreign: ignored and written anew.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { Discovery } from '../vault/discover.js';
import { folderKey } from '../vault/link-memo.js';
import { roleClassifier } from '../vault/roles.js';
import { writeCacheFile } from '../util/cache-dir.js';
import { sha1Base64 } from '../util/digest.js';
import { CACHE_KEY } from '../version.js';
import { CACHE_FILE, DELTA_FILE } from './cache.js';
import { readRoots, type LinkGraph } from './link-graph.js';
import type { SignatureSet } from './signatures.js';

export const GRAPH_CACHE_FILE = join('.memlint', 'cache', 'guard-graph-v1.bin');
const MAGIC = 'memlint-guard-graph-2';
const v8 = (): typeof import('node:v8') => process.getBuiltinModule('node:v8');

type Landing = string | null | 'outside';

interface Stored {
  readonly magic: string;
  readonly build: string;
  /** sha1 of the settings and the listing (`listingKey`). */
  readonly key: string;
  /** The signature cache file the graph came from: size, mtimeMs, ctimeMs, ino. */
  readonly table: readonly number[];
  /** Per note, in discovery order: size and mtime. */
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  /** The notes (the first sizes.length), then every other path a note links to. */
  readonly nodes: readonly string[];
  /** Note i's links land at edges[offsets[i]] … edges[offsets[i + 1] - 1] (node numbers). */
  readonly offsets: Uint32Array;
  readonly edges: Uint32Array;
  /** memoKey(from, kind, target) → where the link landed. */
  readonly memo: readonly (readonly [string, Landing])[];
}

/** What a link's landing depends on besides the lookup: a wikilink none, a path link its file's folder. Mentions are not kept. */
const memoKey = (from: string, kind: string, target: string): string | null =>
  kind === 'mention' ? null : `${kind === 'wikilink' ? '' : folderKey(from)}\0${kind}\0${target}`;

function listingKey(root: string, config: Config, found: Discovery): string {
  return sha1Base64(
    JSON.stringify([
      root,
      config.index.file,
      config.catalog.file,
      config.secondaryIndexes,
      config.ignore,
      config.maxFileBytes,
      found.markdown.map((f) => (f.via ? `${f.path}\0${f.via}` : f.path)),
      found.other,
    ]),
  );
}

/** The signature cache file's identity (null when there is none). */
function tableId(root: string): number[] | null {
  const st = statSync(join(root, CACHE_FILE), { throwIfNoEntry: false });
  if (!st) return null;
  // And the delta written since (signatures.ts), or -1s without one.
  const d = statSync(join(root, DELTA_FILE), { throwIfNoEntry: false });
  return [st.size, st.mtimeMs, st.ctimeMs, st.ino, ...(d ? [d.size, d.mtimeMs, d.ctimeMs, d.ino] : [-1, -1, -1, -1])];
}

const sameId = (a: readonly number[] | null, b: readonly number[] | null): boolean =>
  a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]);

function readStored(root: string): Stored | null {
  try {
    const s = v8().deserialize(readFileSync(join(root, GRAPH_CACHE_FILE))) as Partial<Stored>;
    if (
      s.magic !== MAGIC ||
      s.build !== CACHE_KEY ||
      typeof s.key !== 'string' ||
      !Array.isArray(s.table) ||
      !(s.sizes instanceof Float64Array) ||
      !(s.mtimes instanceof Float64Array) ||
      !Array.isArray(s.nodes) ||
      !(s.offsets instanceof Uint32Array) ||
      !(s.edges instanceof Uint32Array) ||
      !Array.isArray(s.memo)
    )
      return null;
    const n = s.sizes.length;
    if (s.mtimes.length !== n || s.offsets.length !== n + 1 || s.nodes.length < n) return null;
    if (s.offsets[n] !== s.edges.length) return null;
    for (let i = 0; i < n; i++) if (s.offsets[i]! > s.offsets[i + 1]!) return null;
    for (const e of s.edges) if (e >= s.nodes.length) return null;
    for (const p of s.nodes) if (typeof p !== 'string') return null;
    for (const m of s.memo) if (!Array.isArray(m) || typeof m[0] !== 'string') return null;
    return s as Stored;
  } catch {
    return null;
  }
}

/** True when every note stats as stored (same notes, in the same order, same size and mtime). */
function notesUnchanged(s: Stored, found: Discovery, roleOf: (path: string) => string): boolean {
  let k = 0;
  const n = s.sizes.length;
  for (const f of found.markdown) {
    if (roleOf(f.path) !== 'note') continue;
    if (k >= n || s.nodes[k] !== f.path) return false;
    const st = statSync(f.absPath, { throwIfNoEntry: false });
    if (!st || st.size !== s.sizes[k] || st.mtimeMs !== s.mtimes[k]) return false;
    k++;
  }
  return k === n;
}

/** A LinkGraph over a stored graph; a link the memo does not hold is asked of `full()`. */
function storedGraph(s: Stored, found: Discovery, roleOf: (path: string) => string, full: () => LinkGraph): LinkGraph {
  const n = s.sizes.length;
  const memo = new Map(s.memo);
  let ids: Map<string, number> | undefined;
  const idOf = (p: string): number | undefined => {
    if (!ids) {
      ids = new Map();
      for (let i = 0; i < s.nodes.length; i++) ids.set(s.nodes[i]!, i);
    }
    return ids.get(p);
  };
  const resolve = (from: string, kind: string, target: string): Landing => {
    const k = memoKey(from, kind, target);
    if (k !== null && memo.has(k)) return memo.get(k)!;
    return full().resolve(from, kind, target);
  };
  let roots: LinkGraph['roots'] | undefined;
  const rootsNow = (): LinkGraph['roots'] => (roots ??= readRoots(found, roleOf));
  /**
   * The nodes reached from `start` and not marked yet, marked `m` (starts first, in order): a start is followed when
   * it is a note; `unknown` is told of a start the graph does not hold.
   */
  const walk = (start: Iterable<string>, mark: Uint8Array, m: number, unknown?: (path: string) => void): number[] => {
    const queue: number[] = [];
    const got: number[] = [];
    for (const p of start) {
      const i = idOf(p);
      if (i === undefined) {
        unknown?.(p);
        continue;
      }
      if (mark[i]) continue;
      mark[i] = m;
      got.push(i);
      if (i < n) queue.push(i);
    }
    while (queue.length) {
      const i = queue.pop()!;
      for (let e = s.offsets[i]!; e < s.offsets[i + 1]!; e++) {
        const t = s.edges[e]!;
        if (mark[t]) continue;
        mark[t] = m;
        got.push(t);
        if (t < n) queue.push(t);
      }
    }
    return got;
  };
  return {
    resolve,
    otherRootTargets: () => {
      const out = new Set<string>();
      for (const r of rootsNow())
        for (let k = 0; k + 1 < r.links.length; k += 2) {
          const t = resolve(r.from, r.links[k]!, r.links[k + 1]!);
          if (t && t !== 'outside') out.add(t);
        }
      return out;
    },
    reach: (start) => {
      const seen = new Set<string>();
      const mark = new Uint8Array(s.nodes.length);
      // A start the graph does not hold is reached, and leads nowhere.
      for (const i of walk(start, mark, 1, (p) => seen.add(p))) seen.add(s.nodes[i]!);
      return seen;
    },
    lostNotes: (before, after) => {
      // Marks by node: 1 reached from `after`, 2 reached only from `before`. Starts the graph does not hold are
      // no note: they cannot be lost notes and lead nowhere.
      const mark = new Uint8Array(s.nodes.length);
      walk(after, mark, 1);
      return walk(before, mark, 2)
        .filter((i) => i < n)
        .map((i) => s.nodes[i]!)
        .sort();
    },
    isNote: (p) => {
      const i = idOf(p);
      return i !== undefined && i < n;
    },
    notes: () => s.nodes.slice(0, n),
    out: (p) => {
      const i = idOf(p);
      if (i === undefined || i >= n) return [];
      return [...s.edges.subarray(s.offsets[i]!, s.offsets[i + 1]!)].map((t) => s.nodes[t]!);
    },
    get roots() {
      return rootsNow();
    },
  };
}

/** The graph as stored: CSR over the notes (discovery order) and every other path they link to. */
function toStored(
  key: string,
  table: readonly number[],
  g: LinkGraph,
  sigs: SignatureSet,
  memo: Map<string, Landing>,
): Stored {
  const notes = g.notes();
  const nodes = [...notes];
  const ids = new Map<string, number>();
  notes.forEach((p, i) => ids.set(p, i));
  const sizes = new Float64Array(notes.length);
  const mtimes = new Float64Array(notes.length);
  const byPath = new Map<string, { size: number; mtimeMs: number }>();
  if (sigs.table)
    for (const i of sigs.valid)
      byPath.set(sigs.table.paths[i]!, { size: sigs.table.sizes[i]!, mtimeMs: sigs.table.mtimes[i]! });
  for (const f of sigs.fresh) byPath.set(f.path, f);
  const offsets = new Uint32Array(notes.length + 1);
  const edges: number[] = [];
  notes.forEach((p, i) => {
    const id = byPath.get(p)!;
    sizes[i] = id.size;
    mtimes[i] = id.mtimeMs;
    const seen = new Set<number>();
    for (const t of g.out(p)) {
      let j = ids.get(t);
      if (j === undefined) {
        j = nodes.length;
        nodes.push(t);
        ids.set(t, j);
      }
      if (!seen.has(j)) {
        seen.add(j);
        edges.push(j);
      }
    }
    offsets[i + 1] = edges.length;
  });
  return {
    magic: MAGIC,
    build: CACHE_KEY,
    key,
    table,
    sizes,
    mtimes,
    nodes,
    offsets,
    edges: Uint32Array.from(edges),
    memo: [...memo],
  };
}

export interface GraphSession {
  /** The link graph: the stored one while it holds, else built (by `build`) now. */
  graph(): LinkGraph;
  /** The signature set, when the graph had to be built (for the result's cache counts). */
  sigs(): SignatureSet | undefined;
  /** How many notes the stored graph vouched for (0 when it was not used). */
  readonly fromStored: number;
  /** Stores the graph built in this call, when it may be (read-write mode). */
  save(): void;
}

/**
 * `build` gives the signature set and the graph built from it (guard.ts: with its corrupt-cache retry).
 * Mode 'off' never reads or writes the file; 'read-only' reads it.
 */
export function graphSession(
  root: string,
  config: Config,
  found: Discovery,
  mode: 'read-write' | 'read-only' | 'off',
  build: () => { sigs: SignatureSet; graph: LinkGraph },
): GraphSession {
  const roleOf = roleClassifier(config, 'claude');
  let built: { sigs: SignatureSet; graph: LinkGraph; table: number[] | null; storable: boolean } | undefined;
  // Every root link resolved in this call (index before and after, catalogs): the next call's memo.
  const memo = new Map<string, Landing>();
  let key: string | undefined;
  const full = (): LinkGraph => {
    if (!built) {
      const before = mode === 'off' ? null : tableId(root);
      const { sigs, graph } = build();
      const after = mode === 'off' ? null : tableId(root);
      built = {
        sigs,
        graph,
        table: after,
        storable:
          sameId(before, after) &&
          sigs.table !== null &&
          sigs.computed === 0 &&
          sigs.unsigned.length === 0 &&
          sigs.unreadable.length === 0,
      };
    }
    return built.graph;
  };
  let fromStored = 0;
  // Asked only when the write changes the index's links (most writes do not).
  const storedNow = (): LinkGraph | undefined => {
    if (mode === 'off') return undefined;
    const s = readStored(root);
    if (!s) return undefined;
    key = listingKey(root, config, found);
    if (s.key !== key || !sameId(s.table, tableId(root)) || !notesUnchanged(s, found, roleOf)) return undefined;
    fromStored = s.sizes.length;
    return storedGraph(s, found, roleOf, full);
  };
  // What linkChanges asks (the index's links, the catalogs'), noted for the next call's memo.
  const resolveNoted = (g: LinkGraph, from: string, kind: string, target: string): Landing => {
    const r = g.resolve(from, kind, target);
    const k = memoKey(from, kind, target);
    if (k !== null) memo.set(k, r);
    return r;
  };
  const recording = (g: LinkGraph): LinkGraph => ({
    resolve: (from, kind, target) => resolveNoted(g, from, kind, target),
    otherRootTargets: () => {
      const out = new Set<string>();
      for (const r of g.roots)
        for (let k = 0; k + 1 < r.links.length; k += 2) {
          const t = resolveNoted(g, r.from, r.links[k]!, r.links[k + 1]!);
          if (t && t !== 'outside') out.add(t);
        }
      return out;
    },
    reach: (start) => g.reach(start),
    lostNotes: (before, after) => g.lostNotes(before, after),
    isNote: (p) => g.isNote(p),
    notes: () => g.notes(),
    out: (p) => g.out(p),
    get roots() {
      return g.roots;
    },
  });
  let handed: LinkGraph | undefined;
  return {
    graph: () => (handed ??= recording(storedNow() ?? full())),
    sigs: () => built?.sigs,
    get fromStored() {
      return built ? 0 : fromStored;
    },
    save() {
      if (mode !== 'read-write' || !built?.storable || built.table === null) return;
      try {
        key ??= listingKey(root, config, found);
        writeCacheFile(
          join(root, GRAPH_CACHE_FILE),
          v8().serialize(toStored(key, built.table, built.graph, built.sigs, memo)),
        );
      } catch {
        /* a read-only vault, or a note's links that do not decode: answered without storing */
      }
    },
  };
}
