/** Builds the immutable Vault model that every command reads. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { sha1Base64 } from '../util/digest.js';
import { VaultError } from '../util/errors.js';
import { mark } from '../util/timing.js';
import { discover, type DiscoveredFile, type Discovery } from './discover.js';
import { makeVaultFile, parseMarkdown, readFileBytes, readMarkdownFile } from './file.js';
import { DECODE_GROUP, decodeMany } from './decode.js';
import { readStore } from './hermes.js';
import { readIndex } from './index-file.js';
import type {
  FileRole,
  FileStat,
  IndexInfo,
  Link,
  ParseCache,
  ParsedFile,
  SkippedEntry,
  Vault,
  VaultFile,
  VaultKind,
} from './model.js';
import { detectKind, roleClassifier } from './roles.js';
import { count } from '../util/counters.js';
import { ANY_KEY, buildLookup, fileKeys, lazyLink, resolveLink, targetKeys, type NoteLookup } from './resolve.js';
import type { ScannedLink } from './scan.js';
import { linkResolver, type LinkResolver } from './link-memo.js';
import type { ByteAlloc } from '../util/arena.js';

export interface LoadOptions {
  readonly config: Config;
  readonly kind?: VaultKind;
  /** Reuse parses of unchanged files from an earlier run (`check --cache`). */
  readonly parseCache?: ParseCache;
  /** Told of each file of the vault once it is parsed, in order, with the size limit it was read with and the vault's kind. */
  readonly onParsed?: (p: ParsedFile, maxBytes: number, kind: VaultKind) => void;
  /** Told what discovery found (`check --cache` records it, to know an unchanged vault next time). */
  readonly onDiscover?: (found: Discovery) => void;
  /** What `discover(root)` found a moment ago in this run (`check --cache` looked already): not walked again. */
  readonly found?: Discovery;
  /** Where files' bytes are read into (`check`: src/util/arena.ts); else a buffer each. */
  readonly alloc?: ByteAlloc;
  /**
   * false: a file whose text is its bytes decoded keeps only the text (`ParsedFile.encoded`; `check`, which reads no
   * file's bytes once parsed: at hard 10k, 59 MB less held).
   */
  readonly keepBytes?: boolean;
}

/** Indexes, catalogs and stores are read up to this size whatever maxFileBytes says. */
const INDEX_MAX_BYTES = 256 * 1024 * 1024;
const NO_BYTES = new Uint8Array(0);
function toLink(p: ParsedFile, l: ScannedLink, lookup: NoteLookup, root: string, resolver: LinkResolver): Link {
  const pos =
    l.line !== undefined && l.column !== undefined ? { line: l.line, column: l.column } : p.position(l.offset);
  // Resolved without did-you-mean; a missing link gets its suggestion when something reads it.
  const r = resolver(p.path, l);
  if (r.resolution !== 'missing') {
    return Object.freeze({
      kind: l.kind,
      target: l.target,
      offset: l.offset,
      length: l.length,
      line: pos.line,
      column: pos.column,
      resolved: r.resolved,
      resolution: r.resolution,
      suggestion: r.suggestion,
    });
  }
  const fields = {
    kind: l.kind,
    target: l.target,
    offset: l.offset,
    length: l.length,
    line: pos.line,
    column: pos.column,
    resolved: r.resolved,
    resolution: r.resolution,
  };
  return lazyLink(fields, suggester(p.path, lookup, root)(l));
}

/** The did-you-mean of a missing link of the file at `from`: the answer `resolveLink` gives with suggestions on. */
const suggester =
  (from: string, lookup: NoteLookup, root: string) => (l: Pick<ScannedLink, 'kind' | 'target'>) => (): string | null =>
    resolveLink(from, l, lookup, root).suggestion;

export function loadVault(dir: string, options: LoadOptions): Vault {
  const root = resolve(dir);
  let st;
  try {
    st = statSync(root);
  } catch (e) {
    throw new VaultError(
      `cannot read vault ${root}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (e as Error).message}`,
    );
  }
  if (!st.isDirectory()) throw new VaultError(`vault ${root} is not a folder`);
  const { config } = options;
  let found;
  try {
    found = options.found ?? discover(root);
  } catch (e) {
    throw new VaultError(`cannot list vault ${root}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  mark('discover');
  options.onDiscover?.(found);
  const parsedCache = new Map<string, ParsedFile>();
  const parse = (f: DiscoveredFile, role: FileRole): ParsedFile => {
    let p = parsedCache.get(f.path);
    if (!p || p.role !== role) {
      // maxFileBytes is about notes; an index or catalog is always read (a 100k-note catalog is ~6 MB).
      // Telling the kind reads MEMORY.md as a Hermes store first: that guess never goes through the cache.
      const cache = role === 'hermes-store' && !kindKnown ? undefined : options.parseCache;
      p = readMarkdownFile(f.path, f.absPath, role, role === 'note' ? config.maxFileBytes : INDEX_MAX_BYTES, {
        ...(f.raw ? { raw: f.raw } : cache ? { cache } : {}),
        ...(options.alloc ? { alloc: options.alloc } : {}),
      });
      parsedCache.set(f.path, p);
    }
    return p;
  };
  let kindKnown = false;
  const kind = options.kind ?? config.kind ?? detectKind(found.markdown, (f) => parse(f, 'hermes-store').text, true);
  kindKnown = true;
  const roleOf = roleClassifier(config, kind);
  const parsed: ParsedFile[] = [];
  const other = [...found.other];
  const skipped = [...found.skipped];
  const maxOf = (role: FileRole): number => (role === 'note' ? config.maxFileBytes : INDEX_MAX_BYTES);
  const unreadable = (f: DiscoveredFile, e: unknown): void => {
    skipped.push({
      path: f.path,
      reason: 'unreadable',
      detail: (e as NodeJS.ErrnoException).code ?? (e as Error).message,
    });
  };
  const done = (p: ParsedFile): void => {
    parsed.push(p);
    options.onParsed?.(p, maxOf(p.role), kind);
  };
  // Without a parse cache (which decodes only the files it cannot reuse), files are read a group at a time and
  // their texts decoded together (`decodeMany`), then parsed in order.
  let group: { f: DiscoveredFile; role: FileRole; bytes: Uint8Array; stat: FileStat }[] = [];
  let groupBytes = 0;
  const parseGroup = (): void => {
    const texts = decodeMany(group.map((g) => (g.stat.size > maxOf(g.role) ? NO_BYTES : g.bytes)));
    group.forEach((g, k) => {
      const text = texts[k];
      try {
        done(
          parseMarkdown(
            g.f.path,
            g.f.absPath,
            g.role,
            g.bytes,
            g.stat,
            maxOf(g.role),
            text === undefined ? {} : { text, ...(options.keepBytes === false ? { keepBytes: false } : {}) },
          ),
        );
      } catch (e) {
        unreadable(g.f, e);
      }
    });
    group = [];
    groupBytes = 0;
  };
  for (const f of found.markdown) {
    const role = roleOf(f.path);
    if (role === 'ignored') {
      other.push(f.path);
      skipped.push({ path: f.path, reason: 'ignored', detail: 'matches `ignore` in config' });
      continue;
    }
    const known = parsedCache.get(f.path);
    if (options.parseCache || (known && known.role === role)) {
      parseGroup();
      try {
        done(parse(f, role));
      } catch (e) {
        unreadable(f, e);
      }
      continue;
    }
    try {
      const { bytes, stat } = readFileBytes(f.absPath, maxOf(role), {
        ...(f.raw ? { raw: f.raw } : {}),
        ...(options.alloc ? { alloc: options.alloc } : {}),
      });
      group.push({ f, role, bytes, stat });
      groupBytes += bytes.length;
    } catch (e) {
      unreadable(f, e);
    }
    if (groupBytes >= DECODE_GROUP) parseGroup();
  }
  parseGroup();
  mark('read+parse');
  return assembleVault(root, kind, config, parsed, other, skipped, options.parseCache);
}

/**
 * What a file's resolved links depend on besides its own bytes, path and role: the root, every file's path and
 * role, every note's name, and the other files (the lookup `buildLookup` makes from them), in the order given.
 */
export function vaultShape(
  root: string,
  parsed: readonly Pick<ParsedFile, 'path' | 'role' | 'meta'>[],
  other: readonly string[],
): string {
  const parts: string[] = [root];
  for (const p of parsed) parts.push(p.path, p.role, p.role === 'note' ? (p.meta.name ?? '\u0001') : '');
  parts.push('\u0002', ...other);
  return sha1Base64(parts.join('\u0000'));
}

/**
 * A vault whose resolved links a vault assembled from mostly its files reuses (apply's post-state gate assembles one
 * per trial). A file's links are a function of its bytes, path and role and of the lookup (every file's path and
 * role, every note's name, the other files). A file the new vault shares with the base (same bytes object, path and
 * role) keeps the base's links when the lookup is the base's; when files were added, removed, renamed or given
 * another role (a merge deletes a note), it keeps them unless one of its links names one of those files
 * (`targetKeys`/`fileKeys` in resolve.ts), its missing links given the new vault's did-you-mean; the rest is
 * resolved as usual. One resolver: reuse only skips asking it again where its answer cannot have changed.
 */
export interface LinkBase {
  readonly root: string;
  readonly other: ReadonlySet<string>;
  /** Every file's role and (a note's) name, by path. */
  readonly files: ReadonlyMap<string, { readonly role: FileRole; readonly name: string | null }>;
  /** The base's files by their bytes object. */
  readonly byBytes: WeakMap<Uint8Array, VaultFile>;
  /**
   * Links of files not in the base, resolved in a vault assembled on it, by bytes object, with that vault's
   * difference from the base (`Changed.signature`: the lookup is a function of the base and it): a file a gate
   * trial writes is written with the same bytes in the next trial that holds the same item (apply/compose.ts).
   */
  readonly assembled: WeakMap<
    Uint8Array,
    { readonly path: string; readonly role: FileRole; readonly signature: string; readonly links: readonly Link[] }
  >;
  /**
   * The base's own resolver (its memo of answers by folder, kind and target), when the base was assembled here: a
   * link of a file the new vault does not share with the base (its index, edited) resolves as in the base unless
   * one of its `targetKeys` is changed, so it is asked of this memo instead of a new vault's empty one.
   */
  readonly resolver: LinkResolver | null;
}

/** Each assembled vault's resolver (without did-you-mean), for the vaults assembled on it (`LinkBase.resolver`). */
const resolvers = new WeakMap<Vault, LinkResolver>();

/** How a vault differs from its base: the keys of the files it adds, removes, renames or re-roles, and the exact list. */
interface Changed {
  readonly keys: ReadonlySet<string>;
  readonly signature: string;
}

const bases = new WeakMap<Vault, LinkBase>();
/** The vault as a `LinkBase` (built once per vault). */
export function linkBase(vault: Vault): LinkBase {
  let base = bases.get(vault);
  if (!base) {
    const byBytes = new WeakMap<Uint8Array, VaultFile>();
    const files = new Map<string, { role: FileRole; name: string | null }>();
    for (const f of vault.files) {
      byBytes.set(f.bytes, f);
      files.set(f.path, { role: f.role, name: f.role === 'note' ? (f.meta.name ?? null) : null });
    }
    base = {
      root: vault.root,
      other: vault.otherFiles,
      files,
      byBytes,
      assembled: new WeakMap(),
      resolver: resolvers.get(vault) ?? null,
    };
    bases.set(vault, base);
  }
  return base;
}

/** How `parsed` differs from the base (files added, removed, renamed or re-roled); null when nothing is reusable. */
function changedFrom(
  base: LinkBase,
  root: string,
  parsed: readonly ParsedFile[],
  other: readonly string[],
): Changed | null {
  if (root !== base.root || other.length !== base.other.size || other.some((o) => !base.other.has(o))) return null;
  const keys = new Set<string>();
  const diff: string[] = [];
  const touch = (path: string, name: string | null): void => {
    for (const k of fileKeys(path, name)) keys.add(k);
  };
  const paths = new Set<string>();
  for (const p of parsed) {
    paths.add(p.path);
    const was = base.files.get(p.path);
    const name = p.role === 'note' ? (p.meta.name ?? null) : null;
    if (was && was.role === p.role && was.name === name) continue;
    diff.push(`+${p.path}\0${p.role}\0${name ?? '\u0001'}`);
    touch(p.path, name);
    if (was) touch(p.path, was.name);
  }
  for (const [path, was] of base.files)
    if (!paths.has(path)) {
      diff.push(`-${path}`);
      touch(path, was.name);
    }
  return { keys, signature: diff.join('\n') };
}

/**
 * `targetKeys` of a link, by its kind and target (a function of those two alone): a vault has many links to few
 * targets (hard 10k: 213,622 links, 59,833 distinct), and each key is a fold. Bounded like the gate's line memos.
 */
const keysByKind = new Map<string, Map<string, readonly string[]>>();
let keysKept = 0;
function keysOf(link: Pick<ScannedLink, 'kind' | 'target'>): readonly string[] {
  let byTarget = keysByKind.get(link.kind);
  if (byTarget === undefined) keysByKind.set(link.kind, (byTarget = new Map()));
  let keys = byTarget.get(link.target);
  if (keys === undefined) {
    if (keysKept > 500_000) {
      for (const m of keysByKind.values()) m.clear();
      keysKept = 0;
    }
    byTarget.set(link.target, (keys = targetKeys(link)));
    keysKept++;
  }
  return keys;
}

/** The keys a file's links depend on (`targetKeys`), once per links array. */
const keysMemo = new WeakMap<readonly Link[], ReadonlySet<string>>();
function linkKeys(links: readonly Link[]): ReadonlySet<string> {
  let keys = keysMemo.get(links);
  if (!keys) {
    const set = new Set<string>();
    for (const l of links) for (const k of keysOf(l)) set.add(k);
    keysMemo.set(links, (keys = set));
  }
  return keys;
}

/**
 * The resolver of a vault assembled on `base`: a link none of whose keys `changed` holds has the base's answer
 * (`targetKeys`: its answer depends on no file added, removed, renamed or re-roled), asked of the base's memo; any
 * other of the new vault's own. Neither gives did-you-mean (`toLink` asks the new vault's lookup for it).
 */
function onBase(base: LinkBase, changed: Changed, own: LinkResolver): LinkResolver {
  const from = base.resolver;
  if (from === null) return own;
  if (changed.keys.size === 0) return from;
  return (fromPath, link) => {
    const keys = keysOf(link);
    for (const k of keys) if (k === ANY_KEY || changed.keys.has(k)) return own(fromPath, link);
    return from(fromPath, link);
  };
}

/** The base's links of `p` where their answers stand in a vault that differs from the base by `changed`, or undefined. */
function reusedLinks(
  base: LinkBase,
  changed: Changed,
  p: ParsedFile,
  suggest: (l: Link) => () => string | null,
): readonly Link[] | undefined {
  const was = base.byBytes.get(p.bytes);
  if (!was) {
    const known = base.assembled.get(p.bytes);
    if (known && known.path === p.path && known.role === p.role && known.signature === changed.signature) {
      count('link.filesReused');
      return known.links;
    }
    return undefined;
  }
  if (was.path !== p.path || was.role !== p.role) return undefined;
  const links = was.links;
  if (changed.keys.size === 0) return links;
  const own = linkKeys(links);
  if (own.has(ANY_KEY)) return undefined;
  for (const k of changed.keys) if (own.has(k)) return undefined;
  count('link.filesReused');
  if (!links.some((l) => l.resolution === 'missing')) return links;
  // Another set of notes: a missing link's did-you-mean is asked of this vault's lookup.
  return Object.freeze(
    links.map((l) => {
      if (l.resolution !== 'missing') return l;
      const { kind, target, offset, length, line, column, resolved, resolution } = l;
      return lazyLink({ kind, target, offset, length, line, column, resolved, resolution }, suggest(l));
    }),
  );
}

/** The index budget and the entries past it: of a Claude vault's index only. */
export const indexInfoOf = (index: VaultFile | null, kind: VaultKind, config: Config): IndexInfo | null =>
  index && kind === 'claude' ? Object.freeze(readIndex(index, config.index)) : null;

/** Links resolved, indexes read, everything frozen: the Vault from parsed files (on disk or in memory). */
export function assembleVault(
  root: string,
  kind: VaultKind,
  config: Config,
  parsed: readonly ParsedFile[],
  other: readonly string[],
  skipped: SkippedEntry[],
  cache?: ParseCache,
  base?: LinkBase,
): Vault {
  const notes = parsed.filter((p) => p.role === 'note');
  const lookup = buildLookup(
    notes.map((n) => ({ path: n.path, stem: n.stem, name: n.meta.name })),
    parsed.map((p) => p.path),
    other,
  );
  // Links resolve against the vault's shape (paths, roles, names, other files): while it is the one
  // cached, a reused file's resolved links are those of the last run.
  if (cache) cache.useShape(vaultShape(root, parsed, other));
  const own = linkResolver(lookup, root);
  const changed = base ? changedFrom(base, root, parsed, other) : null;
  const resolver = changed ? onBase(base!, changed, own) : own;
  const resolveAll = (p: ParsedFile): readonly Link[] => {
    const known = changed && reusedLinks(base!, changed, p, (l) => suggester(p.path, lookup, root)(l));
    if (known) return known;
    const links = Object.freeze(p.scan.links.map((l) => toLink(p, l, lookup, root, resolver)));
    if (changed && !base!.byBytes.has(p.bytes))
      base!.assembled.set(p.bytes, { path: p.path, role: p.role, signature: changed.signature, links });
    return links;
  };
  const files = parsed.map((p) => {
    const known = p.reused ? cache?.resolvedLinks(p.path, suggester(p.path, lookup, root)) : undefined;
    return makeVaultFile(p, known ? () => known() ?? resolveAll(p) : resolveAll(p));
  });
  mark('resolve links');
  const byPath = new Map(files.map((f) => [f.path, f] as const));
  const index = files.find((f) => f.role === 'index') ?? null;
  const stores =
    kind === 'hermes'
      ? files
          .filter((f) => f.role === 'hermes-store')
          .map((f) =>
            Object.freeze(readStore(f, config.hermes.budgets[f.path] ?? config.hermes.budgets['MEMORY.md'] ?? 2200)),
          )
      : [];
  const vault: Vault = Object.freeze({
    root,
    kind,
    config,
    files: Object.freeze(files),
    notes: Object.freeze(files.filter((f) => f.role === 'note')),
    index,
    indexInfo: indexInfoOf(index, kind, config),
    catalog: files.find((f) => f.role === 'catalog') ?? null,
    secondaryIndexes: Object.freeze(files.filter((f) => f.role === 'secondary-index')),
    stores: Object.freeze(stores),
    skipped: Object.freeze(skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))),
    byPath,
    otherFiles: new Set(other),
  });
  resolvers.set(vault, own);
  return vault;
}
