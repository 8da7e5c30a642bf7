/**
 * Guarding writes to what the harness loads: the Claude Code index (MEMORY.md) and Hermes stores.
 * The index written is measured with the function `check` uses (harnessCut / readIndex); a store
 * with Hermes' own arithmetic (vault/hermes.ts). Nothing here runs unless the write targets the
 * index, a store, or a new note (the orphan check reads the index only then).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { unitName } from '../rules/index/over-budget.js';
import { loadedEntries, pyStrip, splitEntries, storeChars, codePoints } from '../vault/hermes.js';
import { harnessCut, readIndex, type Budget } from '../vault/index-file.js';
import { parseMarkdown } from '../vault/file.js';
import { buildLookup, resolveLink } from '../vault/resolve.js';
import type { IndexEntry, IndexInfo, Vault } from '../vault/model.js';
import type { LinkGraph } from './link-graph.js';
import { flatLinks, type CacheMode } from './signatures.js';
import { writeCacheFile } from '../util/cache-dir.js';
import { sha1Base64 } from '../util/digest.js';
import { CACHE_KEY } from '../version.js';

export interface IndexGuard {
  readonly verdict: 'ok' | 'ask' | 'refuse';
  /** Why it is `ask` or `refuse` (one sentence each, entries and notes named). */
  readonly reasons: readonly string[];
  /** Said in the answer without stopping the write (a note with no index line yet). */
  readonly advice: readonly string[];
  /** The index or store as it would be after the write. */
  readonly measured?: {
    readonly lines?: number;
    readonly size: number;
    readonly maxLines?: number;
    readonly max: number;
    readonly unit: string;
    readonly lost?: readonly { line: number; text: string; target: string | null }[];
  };
}

const OK: IndexGuard = { verdict: 'ok', reasons: [], advice: [] };
/** `known`: the file's text when guard has read it already (for the vault's kind). */
const readText = (abs: string, known?: string): string | null => {
  try {
    return (known ?? readFileSync(abs, 'utf8')).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
};
/** The file's bytes, a BOM dropped (as readText drops it); `known`: read already (for the vault's kind). */
const readBytes = (abs: string, known?: Uint8Array): Buffer | null => {
  let b: Buffer;
  try {
    b = known ? Buffer.from(known.buffer, known.byteOffset, known.byteLength) : readFileSync(abs);
  } catch {
    return null;
  }
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
};
const budgetOf = (config: Config): Budget => config.index;
const worst = (a: IndexGuard['verdict'], b: IndexGuard['verdict']): IndexGuard['verdict'] =>
  a === 'refuse' || b === 'refuse' ? 'refuse' : a === 'ask' || b === 'ask' ? 'ask' : 'ok';

/** An index text as guard reads it: as the harness loads it, and its links (kind, target, …; mentions left out). */
interface IndexView {
  readonly info: IndexInfo;
  readonly links: readonly string[];
}

const encoder = new TextEncoder();

/**
 * The index text read as a one-file vault reads it (vaultFromText: the same parse, the same lookup
 * holding only the index, links resolved without did-you-mean), without building the vault: a
 * 9,000-line index has ~9,000 links, and freezing each into a VaultFile link was most of an index
 * write (issue 14).
 */
function readView(root: string, config: Config, text: string): IndexView {
  const path = config.index.file;
  const bytes = encoder.encode(text);
  const p = parseMarkdown(
    path,
    `${root}/${path}`,
    'index',
    bytes,
    { size: bytes.length, mtimeMs: 0, mode: 0o644 },
    config.maxFileBytes,
  );
  const lookup = buildLookup([], [path], []);
  const links = p.scan.links.map((l) => {
    const r = resolveLink(path, l, lookup, root, false);
    return {
      kind: l.kind,
      target: l.target,
      line: l.line ?? p.position(l.offset).line,
      resolved: r.resolved,
      resolution: r.resolution,
    };
  });
  return { info: readIndex({ path, text: p.text, links }, config.index), links: flatLinks(links) };
}

/** A view as the cache keeps it: the lost entries are the entries from the cut line on (readIndex), not kept twice. */
const toStored = (v: IndexView): IndexView => ({ ...v, info: { ...v.info, lostEntries: [] } });
const fromStored = (v: IndexView): IndexView => ({
  ...v,
  info: {
    ...v.info,
    lostEntries: v.info.cutLine === null ? [] : v.info.entries.filter((e) => e.line >= v.info.cutLine!),
  },
});

/** Guard's index views, VAULT/.memlint/cache/guard-index-v1.bin: the index as it is and as the last write made it. */
export const INDEX_CACHE_FILE = join('.memlint', 'cache', 'guard-index-v1.bin');
const INDEX_MAGIC = 'memlint-guard-index-1';
const v8 = (): typeof import('node:v8') => process.getBuiltinModule('node:v8');

interface IndexViews {
  view(text: string): IndexView;
  save(): void;
}

/**
 * Views of index texts for one guard call: each text read once (a write measures `before` and
 * `after` twice: size, then links) and, with the cache, kept on disk for the next call, keyed by a
 * hash of everything a view depends on (the text, the vault's root, the index's file name and
 * budget, maxFileBytes) and the build. The next write's `before` is this write's `after`.
 */
function indexViews(root: string, config: Config, mode: CacheMode): IndexViews {
  const seen = new Map<string, { key: string; view: IndexView }>();
  const file = join(root, INDEX_CACHE_FILE);
  const setting = JSON.stringify([
    root,
    config.index.file,
    config.index.maxLines,
    config.index.maxBytes,
    config.index.measure ?? 'utf16',
    config.maxFileBytes,
  ]);
  let stored: Map<string, IndexView> | undefined;
  let computed = false;
  const fromDisk = (): Map<string, IndexView> => {
    if (stored) return stored;
    stored = new Map();
    if (mode === 'off') return stored;
    try {
      const d = v8().deserialize(readFileSync(file)) as { magic?: unknown; build?: unknown; views?: unknown };
      if (d.magic === INDEX_MAGIC && d.build === CACHE_KEY && Array.isArray(d.views))
        for (const [k, v] of d.views as [string, IndexView][]) stored.set(k, fromStored(v));
    } catch {
      /* missing or corrupt: computed and written anew */
    }
    return stored;
  };
  return {
    view(text) {
      let e = seen.get(text);
      if (!e) {
        const key = sha1Base64(`${setting}\0${text}`);
        let view = fromDisk().get(key);
        if (!view) {
          view = readView(root, config, text);
          computed = true;
        }
        e = { key, view };
        seen.set(text, e);
      }
      return e.view;
    },
    save() {
      if (mode !== 'read-write' || !computed) return;
      try {
        writeCacheFile(
          file,
          v8().serialize({
            magic: INDEX_MAGIC,
            build: CACHE_KEY,
            views: [...seen.values()].map((e) => [e.key, toStored(e.view)]),
          }),
        );
      } catch {
        /* a read-only vault */
      }
    },
  };
}

const FIX =
  'shorten long lines, move detail into topic notes, or move low-priority lines to a secondary index (a file listed under `secondaryIndexes`, linked from MEMORY.md)';
const show = (e: IndexEntry): string => `line ${e.line} "${e.text.trim().slice(0, 70)}"`;
const room = (info: Pick<IndexInfo, 'lines' | 'bytes' | 'maxLines' | 'maxBytes'>, unit: string): string =>
  `${Math.max(0, info.maxLines - info.lines)} lines and ${Math.max(0, info.maxBytes - info.bytes)} ${unit} left (${info.lines}/${info.maxLines} lines, ${info.bytes}/${info.maxBytes} ${unit})`;

/** A write whose result is the whole index text `after`. */
/** `graphOf` gives the vault's link graph (guard's cache): asked only when the write changes the index's links. */
export function guardIndexText(
  root: string,
  config: Config,
  after: string,
  graphOf: () => LinkGraph,
  cache: CacheMode = 'off',
  known?: string,
): IndexGuard {
  const views = indexViews(root, config, cache);
  try {
    return indexTextGuard(root, config, after, graphOf, views, known);
  } finally {
    views.save();
  }
}

function indexTextGuard(
  root: string,
  config: Config,
  after: string,
  graphOf: () => LinkGraph,
  views: IndexViews,
  known: string | undefined,
): IndexGuard {
  const before = readText(join(root, config.index.file), known);
  const next = views.view(after).info;
  const unit = unitName(next.measure);
  const measured = {
    lines: next.lines,
    size: next.bytes,
    maxLines: next.maxLines,
    max: next.maxBytes,
    unit,
    lost: next.lostEntries.map((e) => ({ line: e.line, text: e.text, target: e.target })),
  };
  const reasons: string[] = [];
  let verdict: IndexGuard['verdict'] = 'ok';
  const advice: string[] = [];
  if (next.truncated) {
    const prev = before === null ? null : views.view(before).info;
    const lost = next.lostEntries;
    const named = lost.slice(0, 5).map(show).join('; ') + (lost.length > 5 ? `; and ${lost.length - 5} more` : '');
    const what = `${config.index.file} would be ${next.lines} lines and ${next.bytes} ${unit}, past what Claude Code loads (${next.maxLines} lines, ${next.maxBytes} ${unit}): only ${next.loadedLines} lines are loaded`;
    if (!prev || !prev.truncated || lost.length > prev.lostEntries.length) {
      verdict = 'refuse';
      reasons.push(
        `${what}; ${lost.length} entr${lost.length === 1 ? 'y' : 'ies'} would never be seen: ${named || `the text from line ${next.cutLine}`}. Instead: ${FIX}`,
      );
    } else {
      advice.push(
        `${what} (it already was; this write loses no more: ${lost.length} entries still past the cut). To fix: ${FIX}`,
      );
    }
  } else {
    const h = config.index.headroom;
    if (next.lines > next.maxLines * h || next.bytes > next.maxBytes * h) {
      verdict = 'ask';
      reasons.push(
        `${config.index.file} is close to what Claude Code loads: ${room(next, unit)}. Consolidate before it overflows (${FIX})`,
      );
    }
  }
  if (before !== null) {
    const links = linkChanges(root, config, before, after, graphOf, views);
    if (links.unreachable.length) {
      verdict = worst(verdict, 'ask');
      reasons.push(
        `this write removes the only path to ${links.unreachable.length} note(s), which the agent would no longer find: ${links.unreachable.slice(0, 8).join(', ')}${links.unreachable.length > 8 ? ', …' : ''}`,
      );
    }
    if (links.broken.length) {
      verdict = worst(verdict, 'ask');
      reasons.push(`this write adds index links to notes that do not exist: ${links.broken.slice(0, 8).join(', ')}`);
    }
  }
  return { verdict, reasons, advice, measured };
}

export type Pair = { kind: string; target: string };

/**
 * The (kind, target) pairs of `flat` from pair `from` to pair `to` (offsets into the flat list) that `other` does not
 * hold, each once, in the order they first appear. A few pairs are looked for by a scan of `other`; more, through a
 * set of its keys, made once (`keys`).
 */
function pairsNotIn(
  flat: readonly string[],
  from: number,
  to: number,
  other: readonly string[],
  keys: () => Set<string>,
): Pair[] {
  const out: Pair[] = [];
  const seen = new Set<string>();
  const few = to - from <= 2 * FEW_PAIRS;
  for (let k = from; k + 1 < to; k += 2) {
    const kind = flat[k]!,
      target = flat[k + 1]!;
    const key = `${kind}:${target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let held = false;
    if (few) {
      for (let j = 0; j + 1 < other.length; j += 2)
        if (other[j + 1] === target && other[j] === kind) {
          held = true;
          break;
        }
    } else held = keys().has(key);
    if (!held) out.push({ kind, target });
  }
  return out;
}
/** Up to this many pairs in the part that differs are looked for by scanning (a write changes a line or two). */
const FEW_PAIRS = 16;

const keysOf = (flat: readonly string[]): (() => Set<string>) => {
  let keys: Set<string> | undefined;
  return () => {
    if (!keys) {
      keys = new Set<string>();
      for (let k = 0; k + 1 < flat.length; k += 2) keys.add(`${flat[k]!}:${flat[k + 1]!}`);
    }
    return keys;
  };
};

/**
 * How two texts' links differ (flat lists: kind, target, …, in text order): the pairs both lists begin with (`head`,
 * an offset) and end with (`tail`, a length) are the same links, so what one adds or removes is in the middle of
 * each. `added`: the pairs of `next` that `old` does not hold, each once, in the order they first appear; `removed`:
 * whether `old` holds a pair `next` does not.
 */
export function linkDiff(
  old: readonly string[],
  next: readonly string[],
): { head: number; tail: number; added: Pair[]; removed: boolean } {
  const both = Math.min(old.length, next.length) & ~1;
  let head = 0;
  while (head < both && old[head] === next[head] && old[head + 1] === next[head + 1]) head += 2;
  let tail = 0;
  while (
    head + tail < both &&
    old[old.length - 2 - tail] === next[next.length - 2 - tail] &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail += 2;
  return {
    head,
    tail,
    added: pairsNotIn(next, head, next.length - tail, old, keysOf(old)),
    removed: pairsNotIn(old, head, old.length - tail, next, keysOf(next)).length > 0,
  };
}

/** Notes only the removed lines reached, and links the new lines add to nothing. Reads the vault only when the links change. */
function linkChanges(
  root: string,
  config: Config,
  before: string,
  after: string,
  graphOf: () => LinkGraph,
  views: IndexViews,
): { unreachable: string[]; broken: string[] } {
  const old = views.view(before).links;
  const next = views.view(after).links;
  const { head, tail, added, removed } = linkDiff(old, next);
  if (!added.length && !removed) return { unreachable: [], broken: [] };
  // The common write adds a line for a note just written: a file that exists needs no vault load.
  const plainFile = (l: Pair): boolean => {
    const t = l.kind === 'wikilink' ? `${l.target.split(/[#|]/)[0]!.trim()}.md` : l.target.split('#')[0]!;
    if (!t || /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('/')) return !/\.md$/i.test(t) && l.kind !== 'wikilink';
    try {
      return existsSync(join(root, decodeURIComponent(t)));
    } catch {
      return false;
    }
  };
  if (!removed && added.every(plainFile)) return { unreachable: [], broken: [] };
  const graph = graphOf();
  const resolve = (kind: string, target: string): string | null | 'outside' =>
    graph.resolve(config.index.file, kind, target);
  const broken = added
    .filter((l) => /\.md(#.*)?$/i.test(l.target) || l.kind === 'wikilink')
    .filter((l) => resolve(l.kind, l.target) === null)
    .map((l) => l.target);
  if (!removed) return { unreachable: [], broken };
  // Reachability before and after the write: the index's links with the catalog's and secondary
  // indexes', then the same walk `check` does (reachability() in rules/reachability.ts). The links both
  // texts share are resolved once.
  const landings = (flat: readonly string[], from: number, to: number, into: Set<string>): Set<string> => {
    for (let k = from; k + 1 < to; k += 2) {
      const r = resolve(flat[k]!, flat[k + 1]!);
      if (r && r !== 'outside') into.add(r);
    }
    return into;
  };
  const shared = landings(old, old.length - tail, old.length, landings(old, 0, head, graph.otherRootTargets()));
  const startOld = landings(old, head, old.length - tail, new Set(shared));
  const startNew = landings(next, head, next.length - tail, shared);
  return { unreachable: graph.lostNotes(startOld, startNew), broken };
}

/** Guard's cut of the index for note writes, VAULT/.memlint/cache/guard-index-cut-v1.bin: a JSON line, then the index's bytes. */
export const INDEX_CUT_FILE = join('.memlint', 'cache', 'guard-index-cut-v1.bin');
const CUT_MAGIC = 'memlint-guard-index-cut-1';

/**
 * How the harness cuts the index (lines, size, whether it is cut): kept with the very bytes it was measured on and
 * answered from there while the index's bytes are the same (compared whole), so a note write does not decode and
 * measure a 9,000-line index (~45 M instructions on the hard bench shape) that has not changed since the last one.
 */
function indexCut(
  root: string,
  config: Config,
  bytes: Buffer,
  text: () => string,
  mode: CacheMode,
): { truncated: boolean; lines: number; size: number } {
  const file = join(root, INDEX_CUT_FILE);
  const budget = [config.index.maxLines, config.index.maxBytes, config.index.measure ?? 'utf16'];
  if (mode === 'read-write' || mode === 'read-only') {
    try {
      const d = readFileSync(file);
      const nl = d.indexOf(0x0a);
      const head = JSON.parse(d.toString('utf8', 0, nl)) as Record<string, unknown>;
      if (
        head.magic === CUT_MAGIC &&
        head.build === CACHE_KEY &&
        JSON.stringify(head.budget) === JSON.stringify(budget) &&
        typeof head.truncated === 'boolean' &&
        typeof head.lines === 'number' &&
        typeof head.size === 'number' &&
        bytes.equals(d.subarray(nl + 1))
      )
        return { truncated: head.truncated, lines: head.lines, size: head.size };
    } catch {
      /* missing or corrupt: measured and written anew */
    }
  }
  const cut = harnessCut(text(), budgetOf(config));
  const facts = { truncated: cut.truncated, lines: cut.lines, size: cut.size };
  if (mode === 'read-write' || mode === 'rebuild')
    try {
      const head = JSON.stringify({ magic: CUT_MAGIC, build: CACHE_KEY, budget, ...facts });
      writeCacheFile(file, Buffer.concat([Buffer.from(`${head}\n`), bytes]));
    } catch {
      /* a read-only vault */
    }
  return facts;
}

/** A note written at `path`: when it is new and no index line links it, say so; when its line would not fit, ask. */
export function guardNoteIndexLine(
  root: string,
  config: Config,
  path: string,
  draft: string,
  name: string | null,
  description: string | null,
  known?: Uint8Array,
  cache: CacheMode = 'off',
): IndexGuard {
  if (existsSync(join(root, ...path.split('/')))) return OK;
  const bytes = readBytes(join(root, config.index.file), known);
  if (bytes === null) return OK; // index/missing is check's business
  // The text only where it is read: the searches below run on the bytes (a string searched in UTF-8 bytes is
  // found where it is in the decoded text: its encoding starts with an ASCII byte, which no decoding takes into
  // another character), and the cut of an index seen before comes from the cache.
  let decoded: string | undefined;
  const text = (): string => (decoded ??= bytes.toString('utf8'));
  const file = path.split('/').pop()!;
  const stem = file.replace(/\.md$/i, '');
  if (
    bytes.includes(`(${path})`) ||
    bytes.includes(`(./${path})`) ||
    bytes.includes(`[[${stem}]]`) ||
    bytes.includes(`[[${stem}|`) ||
    bytes.includes(`/${file})`)
  ) {
    const index = text();
    // Its line is there: is it loaded?
    const info = readView(root, config, index).info;
    const lost = info.lostEntries.find(
      (e) => e.text.includes(`(${path})`) || e.text.includes(`(./${path})`) || e.text.includes(`[[${stem}`),
    );
    if (!lost || info.entries.some((e) => e.line < lost.line && e.text.includes(path))) return OK;
    return {
      verdict: 'ask',
      reasons: [
        `the index line for ${path} (${show(lost)}) is past what Claude Code loads (${info.loadedLines} of ${info.lines} lines): the agent will not see this note. Make room first (${FIX})`,
      ],
      advice: [],
    };
  }
  void draft;
  const line = `- [${name ?? stem}](${path}) — ${(description ?? '').slice(0, 150)}`.trimEnd();
  const advice = [
    `no line in ${config.index.file} links ${path} yet: the agent will never see this note until one does, e.g. ${JSON.stringify(line)}`,
  ];
  // The room left, from the cut alone (readIndex would parse and resolve every index line: 1.6 s for a 9,000-line
  // index). An index already cut is cut with the line too (it adds a line and its units to the trimmed text), so
  // the index with the line is measured only when the index alone fits. trimEnd drops the white space /\s+$/ drops
  // (the same set: every UTF-16 unit checked), without a regex scan of a 9,000-line index.
  const cut = indexCut(root, config, bytes, text, cache);
  if (cut.truncated || harnessCut(`${text().trimEnd()}\n${line}\n`, budgetOf(config)).truncated) {
    const now = { lines: cut.lines, bytes: cut.size, maxLines: config.index.maxLines, maxBytes: config.index.maxBytes };
    const unit = unitName(config.index.measure ?? 'utf16');
    return {
      verdict: 'ask',
      reasons: [
        `${config.index.file} has no room for this note's line: ${room(now, unit)}, and the line needs 1 line and ${line.length} ${unit}. Make room first (${FIX}), or the note stays invisible`,
      ],
      advice,
    };
  }
  return { verdict: 'ok', reasons: [], advice };
}

/** Hermes `add`: the entry as Hermes would store it, refused as Hermes refuses it. */
export function guardStoreAdd(vault: Vault, draft: string, target: string | undefined): IndexGuard {
  const file = target && vault.stores.some((s) => s.file === target) ? target : 'MEMORY.md';
  const store = vault.stores.find((s) => s.file === file);
  const max = store?.maxChars ?? vault.config.hermes.budgets[file] ?? 2200;
  const content = pyStrip(draft).text;
  if (!content) return { verdict: 'refuse', reasons: ['Content cannot be empty.'], advice: [] };
  const entries = store ? loadedEntries(store.entries) : [];
  const current = storeChars(entries);
  if (entries.includes(content))
    return {
      verdict: 'ok',
      reasons: [],
      advice: ['Entry already exists (no duplicate added).'],
      measured: { size: current, max, unit: 'characters' },
    };
  const total = storeChars([...entries, content]);
  if (total > max) {
    return {
      verdict: 'refuse',
      reasons: [
        `${file} at ${current.toLocaleString('en-US')}/${max.toLocaleString('en-US')} chars. Adding this entry (${codePoints(content)} chars) would exceed the limit. Consolidate: merge overlapping entries or remove stale ones, then retry.`,
      ],
      advice: [],
      measured: { size: total, max, unit: 'characters' },
    };
  }
  return { verdict: 'ok', reasons: [], advice: [], measured: { size: total, max, unit: 'characters' } };
}

/** A write of a whole store file (the hook's Write/Edit of MEMORY.md or USER.md in a Hermes vault). */
export function guardStoreText(vault: Vault, file: string, after: string): IndexGuard {
  const store = vault.stores.find((s) => s.file === file);
  const max = store?.maxChars ?? vault.config.hermes.budgets[file] ?? 2200;
  const bom = after.startsWith('\uFEFF');
  const next = storeChars(loadedEntries(splitEntries(bom ? after.slice(1) : after, bom)));
  const current = store?.chars ?? 0;
  const measured = { size: next, max, unit: 'characters' };
  if (next > max && next > current)
    return {
      verdict: 'refuse',
      reasons: [
        `${file} would hold ${next.toLocaleString('en-US')}/${max.toLocaleString('en-US')} chars (now ${current.toLocaleString('en-US')}), over the budget Hermes enforces. Consolidate: merge overlapping entries or remove stale ones.`,
      ],
      advice: [],
      measured,
    };
  return { verdict: 'ok', reasons: [], advice: [], measured };
}
