/** Where a link points: markdown links by path, wikilinks by stem, then name, then folded spelling. */
import { posix } from 'node:path';
import { stemOf, type Link, type Resolution } from './model.js';
import type { ScannedLink } from './scan.js';
import { count } from '../util/counters.js';
import { editDistance } from '../util/edit-distance.js';

export interface Resolved {
  readonly resolved: string | null;
  readonly resolution: Resolution;
  readonly suggestion: string | null;
}

export interface NoteLookup {
  /** Markdown files that were read (notes and indexes). */
  readonly markdown: ReadonlySet<string>;
  /** Other files that exist in the vault. */
  readonly other: ReadonlySet<string>;
  readonly byStem: ReadonlyMap<string, string>;
  readonly byName: ReadonlyMap<string, string>;
  /** Built on first use: only a wikilink that matches no stem and no name needs it. */
  byFolded(): ReadonlyMap<string, string>;
}

const NON_ASCII = /[^\x00-\x7f]/;
export const fold = (s: string): string =>
  (NON_ASCII.test(s) ? s.normalize('NFKC') : s).toLowerCase().replace(/[-_\s]+/g, '-');

export function buildLookup(
  notes: readonly { path: string; stem: string; name: string | null }[],
  markdown: Iterable<string>,
  other: Iterable<string>,
): NoteLookup {
  const byStem = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const n of notes) {
    if (!byStem.has(n.stem)) byStem.set(n.stem, n.path);
    if (n.name && !byName.has(n.name)) byName.set(n.name, n.path);
  }
  let folded: Map<string, string> | null = null;
  const byFolded = (): ReadonlyMap<string, string> => {
    if (folded) return folded;
    folded = new Map();
    for (const n of notes) {
      const s = fold(n.stem);
      if (!folded.has(s)) folded.set(s, n.path);
      if (n.name) {
        const f = fold(n.name);
        if (!folded.has(f)) folded.set(f, n.path);
      }
    }
    return folded;
  };
  return { markdown: new Set(markdown), other: new Set(other), byStem, byName, byFolded };
}

/** Where a lazy link keeps its did-you-mean: the answer once asked for, else the function that gives it. */
const LAZY = Symbol('suggestion');
interface LazyState {
  value: string | null | undefined;
  suggest: (() => string | null) | null;
}
type LazyLink = Link & { readonly [LAZY]: LazyState };

/** The one getter of every lazy link's `suggestion` (one function: every lazy link has the same shape). */
function lazySuggestion(this: LazyLink): string | null {
  const state = this[LAZY];
  if (state.value === undefined) {
    state.value = state.suggest!();
    state.suggest = null;
  }
  return state.value;
}

/** Whether reading `link.suggestion` would run did-you-mean now (it has not been read yet). */
export function suggestionPending(link: Link): boolean {
  const state = (link as Partial<LazyLink>)[LAZY];
  return state !== undefined && state.value === undefined;
}

/**
 * A frozen link whose `suggestion` is computed by `suggest` on first read, then kept: did-you-mean is
 * an index search per distinct target, and many missing links are never shown with one (a backticked
 * `x.md` mention in a note is reported by no rule with its suggestion). The property is an own,
 * enumerable getter, so spreading and JSON see the same value as a plain field. The getter is one
 * function for all and the state a hidden (symbol, not enumerable) field: V8 then gives every lazy link
 * one shape, where a getter closure per link (an object literal with `get`) made each a dictionary-mode
 * object and every loop over links (reachability, the link rules) megamorphic.
 */
export function lazyLink(fields: Omit<Link, 'suggestion'>, suggest: () => string | null): Link {
  const link = {
    kind: fields.kind,
    target: fields.target,
    offset: fields.offset,
    length: fields.length,
    line: fields.line,
    column: fields.column,
    resolved: fields.resolved,
    resolution: fields.resolution,
  };
  Object.defineProperty(link, 'suggestion', { get: lazySuggestion, enumerable: true });
  Object.defineProperty(link, LAZY, { value: { value: undefined, suggest } satisfies LazyState });
  return Object.freeze(link) as Link;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
/** A path that posix.normalize() would return unchanged: no '.', '..' or empty segment. */
const isSimple = (p: string): boolean =>
  p !== '' && !p.startsWith('/') && !p.endsWith('/') && !p.includes('//') && !DOT_SEGMENT.test(p);

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const isExternal = (raw: string): boolean =>
  raw === '' || raw.startsWith('#') || SCHEME.test(raw) || raw.startsWith('//');
/**
 * A mention target `resolveLink` reads as written: trimmed, no scheme, query, fragment, %-escape or leading `~`, and
 * a simple relative path (`isSimple`). From a file of a `plainFolder`, a mention of it then resolves to
 * `folder/target` when that is a file, and otherwise exactly as from the vault root (the folder changes nothing
 * else: the relative path's unresolved answer depends only on the target's extension).
 */
export const plainMention = (target: string): boolean =>
  target.length === target.trim().length &&
  !isExternal(target) &&
  !target.startsWith('~') &&
  !target.includes('?') &&
  !target.includes('#') &&
  !target.includes('%') &&
  isSimple(target);
/** What `resolvePath` prefixes to a plain relative target from `fromPath`: '' at the root, `folder/` for a simple folder; else null. */
export function plainFolder(fromPath: string): string | null {
  const slash = fromPath.lastIndexOf('/');
  if (slash < 0) return '';
  const folder = fromPath.slice(0, slash);
  return isSimple(folder) ? `${folder}/` : null;
}

/** A trimmed path target without its query or fragment, %-escapes decoded. */
function cleanPath(raw: string): string {
  // Most targets have no query, fragment or escape: skip the replace and the decode for them.
  const bare = raw.includes('?') || raw.includes('#') ? raw.replace(/[?#].*$/, '') : raw;
  return bare.includes('%') ? safeDecode(bare) : bare;
}

/** A `targetKeys` answer: the link's answer may change with any file. */
export const ANY_KEY = '\u0000';
/**
 * What a file must be called for a link's answer to depend on it: the folded stem of its path and its folded name
 * (`fileKeys`). `resolveLink` reads the vault (its lookup) only as: for a wikilink `t`, the note with stem or name
 * `t`, the file `t.md`, the note whose folded stem or name is `t` folded; for a path, the file at the path it
 * names (its last segment is that file's); for a mention also the note with the stem of its last segment; and for
 * a missing link, its did-you-mean (any stem). So while no file with one of these keys is added, removed, renamed or
 * given another role, a link's resolution stays (its did-you-mean aside): what a vault assembled from another's
 * files reuses (`LinkBase` in load.ts). Empty: the answer depends on no file; `ANY_KEY`: on any.
 */
export function targetKeys(link: Pick<ScannedLink, 'kind' | 'target'>): string[] {
  if (link.kind === 'wikilink') {
    const t = link.target.replace(/\.md$/i, '').trim();
    return [fold(t), fold(t.slice(t.lastIndexOf('/') + 1))];
  }
  const raw = link.target.trim();
  if (isExternal(raw)) return [];
  const clean = cleanPath(raw);
  if (clean.startsWith('~')) return [];
  const last = clean.slice(clean.lastIndexOf('/') + 1);
  if (last === '' || last === '.' || last === '..') return [ANY_KEY];
  const keys = [fold(stemOf(last))];
  if (link.kind === 'mention') keys.push(fold(link.target.slice(link.target.lastIndexOf('/') + 1, -3)));
  return keys;
}

/** The keys by which links can name a file (see `targetKeys`): its folded stem and, for a note, its folded name. */
export const fileKeys = (path: string, name: string | null): string[] =>
  name === null ? [fold(stemOf(path))] : [fold(stemOf(path)), fold(name)];

/** A markdown link, definition or backticked mention, relative to the file that holds it. `suggest` false: no did-you-mean (guard's reachability needs only `resolved`). */
export function resolvePath(
  fromPath: string,
  target: string,
  lookup: NoteLookup,
  vaultRoot: string,
  suggest = true,
): Resolved {
  const raw = target.trim();
  if (isExternal(raw)) return { resolved: null, resolution: 'external', suggestion: null };
  let clean = cleanPath(raw);
  if (clean.startsWith('~')) return { resolved: null, resolution: 'outside', suggestion: null };
  if (clean.startsWith('/')) {
    const rootPosix = vaultRoot.split('\\').join('/');
    if (!clean.startsWith(rootPosix + '/')) return { resolved: null, resolution: 'outside', suggestion: null };
    clean = clean.slice(rootPosix.length + 1);
  } else {
    const slash = fromPath.lastIndexOf('/');
    // A vault path's folder is already normal, so folder + '/' + a simple path is what posix.join gives.
    if (slash >= 0)
      clean = isSimple(clean) ? `${fromPath.slice(0, slash)}/${clean}` : posix.join(posix.dirname(fromPath), clean);
  }
  const normal = isSimple(clean) ? clean : posix.normalize(clean);
  if (normal === '..' || normal.startsWith('../')) return { resolved: null, resolution: 'outside', suggestion: null };
  if (lookup.markdown.has(normal)) return { resolved: normal, resolution: 'path', suggestion: null };
  if (lookup.other.has(normal)) {
    return {
      resolved: normal,
      resolution: normal.toLowerCase().endsWith('.md') ? 'path' : 'not-markdown',
      suggestion: null,
    };
  }
  if (!normal.toLowerCase().endsWith('.md')) return { resolved: null, resolution: 'not-markdown', suggestion: null };
  if (!suggest) return { resolved: null, resolution: 'missing', suggestion: null };
  const stem = normal.slice(normal.lastIndexOf('/') + 1, -3);
  const near = lookup.byFolded().get(fold(stem)) ?? closestPath(stem, lookup);
  return { resolved: null, resolution: 'missing', suggestion: near };
}

export function resolveWikilink(target: string, lookup: NoteLookup, suggest = true): Resolved {
  const t = target.replace(/\.md$/i, '').trim();
  const byStem =
    lookup.byStem.get(t) ?? (t.includes('/') ? (lookup.markdown.has(`${t}.md`) ? `${t}.md` : undefined) : undefined);
  if (byStem) return { resolved: byStem, resolution: 'stem', suggestion: null };
  const byName = lookup.byName.get(t);
  if (byName) return { resolved: byName, resolution: 'name', suggestion: null };
  // A lookup with no notes (guard's one-file index) folds nothing: the fold itself is skipped.
  const byFolded = lookup.byFolded();
  const folded = byFolded.size > 0 ? byFolded.get(fold(t)) : undefined;
  if (folded) return { resolved: folded, resolution: 'folded', suggestion: null };
  return { resolved: null, resolution: 'missing', suggestion: suggest ? closest(t, lookup) : null };
}

export function resolveLink(
  fromPath: string,
  link: Pick<ScannedLink, 'kind' | 'target'>,
  lookup: NoteLookup,
  vaultRoot: string,
  suggest = true,
): Resolved {
  if (link.kind === 'wikilink') return resolveWikilink(link.target, lookup, suggest);
  if (link.kind === 'mention') {
    // `feedback_x.md` in prose names a note relative to the vault, or relative to the file.
    const rel = resolvePath(fromPath, link.target, lookup, vaultRoot, suggest);
    if (rel.resolved) return rel;
    const fromRoot = resolvePath('', link.target, lookup, vaultRoot, suggest);
    if (fromRoot.resolved) return fromRoot;
    const byStem = lookup.byStem.get(link.target.slice(link.target.lastIndexOf('/') + 1, -3));
    return byStem ? { resolved: byStem, resolution: 'path', suggestion: null } : rel;
  }
  return resolvePath(fromPath, link.target, lookup, vaultRoot, suggest);
}

function closestPath(stem: string, lookup: NoteLookup): string | null {
  const best = closest(stem, lookup);
  return best === null ? null : (lookup.byStem.get(best) ?? null);
}

/** The largest edit distance a suggestion may be from a folded target. */
const maxDistance = (folded: string): number => Math.max(2, Math.floor(folded.length / 4));

/**
 * Did-you-mean: the note stem nearest to `target` once both are folded — the smallest edit distance,
 * at most max(2, ⌊length/4⌋), ties to the stem first in code-unit order; null when none is that near.
 * Answers through a `StemIndex` built once per lookup (see there), memoized per folded target, in
 * three steps: (1) stems within `NEAR` edits (typos), exactly (through the trigram places once a vault
 * has asked for more than a few targets, see `nearByGrams`; else the trie, within `NEAR_BUDGET` rows); (2) the
 * exact search up to the maximum, within `SEARCH_BUDGET` trie rows; (3) if a budget runs out (typically a name
 * never written, near nothing, in a large vault), the nearest of the stems sharing the most of its rarer trigrams
 * (`StemIndex.fromGrams`). So the answer is exact whenever the nearest stem is within `NEAR` edits (unless step
 * 1 needs the trie past its budget: never at hard 10k, see `NEAR_BUDGET`) or the search is small (every corpus
 * vault's misspellings: test/closest-index.test.ts), the work per target is bounded, and did-you-mean is linear
 * in the number of distinct broken targets.
 * `closestExact` is the unbounded search (measurements: BENCHMARKS.md, "session 6").
 */
export function closest(target: string, lookup: NoteLookup): string | null {
  return indexOf(lookup).closest(fold(target));
}

/** The exact answer (no budget): the nearest stem as `closestBruteForce` gives it, through the trie. */
export function closestExact(target: string, lookup: NoteLookup): string | null {
  return indexOf(lookup).exact(fold(target));
}

/**
 * The lookup's stem index. A lookup with the very stems of the last one built gets that index (and
 * its memoized answers): apply's post-state gate assembles the vault again for each trial of a
 * proposal, with the same notes and another index file, and would otherwise search again for every
 * broken index link of every trial.
 */
function indexOf(lookup: NoteLookup): StemIndex {
  let index = indexes.get(lookup);
  if (!index) {
    const stems = [...lookup.byStem.keys()];
    index = lastBuilt && sameList(lastBuilt.stems, stems) ? lastBuilt.index : new StemIndex(stems);
    lastBuilt = { stems, index };
    indexes.set(lookup, index);
  }
  return index;
}

let lastBuilt: { readonly stems: readonly string[]; readonly index: StemIndex } | null = null;
const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Trie rows the exact search (step 2) may compute for one target before step 3. On the hard bench
 * shape at 10k a target near nothing needed ~2,400 rows on average, and more as the vault grows.
 */
export const SEARCH_BUDGET = 64;
/** Distances up to this are always searched exactly (typos: a narrow band, cheap). */
const NEAR = 2;
/**
 * Trie rows step 1 may compute for a target the trigram places do not serve. Unbounded before session 18, step 1
 * grew with the vault twice over (more targets past `NEAR_PLACES`, more rows each): `resolve.trieRows` 1.46 M at
 * hard 10k, 12.9 M at hard 30k. The most one target needed: 1,510 rows at hard 10k, 4,177 at hard 30k.
 */
export const NEAR_BUDGET = 2048;
/** A trigram in more stems than this says little about which one was meant: not read. */
const GRAM_POSTING_CAP = 200;
/** Postings read per target at most (rarest trigrams first). */
const GRAM_READ_BUDGET = 1000;
/** Candidates (most shared trigrams first) whose edit distance is computed. */
const GRAM_CANDIDATES = 16;

/** The same answer by comparing with every stem: the reference the index is tested against. */
export function closestBruteForce(target: string, stems: Iterable<string>): string | null {
  const t = fold(target);
  const max = maxDistance(t);
  let best: string | null = null;
  let bestD = max + 1;
  for (const stem of stems) {
    const d = editDistance(t, fold(stem), max);
    if (d < bestD || (d === bestD && best !== null && stem < best)) {
      bestD = d;
      best = stem;
    }
  }
  return best;
}

const indexes = new WeakMap<NoteLookup, StemIndex>();

/** A stem index's trigram places (see `StemIndex.places`). */
interface PlaceIndex {
  /** Per UTF-16 unit: its id among the units the stems hold, 1… in code-unit order; 0 for any other. */
  readonly unitIds: Int32Array;
  /** The number of unit ids + 1: a trigram's number is (a * base + b) * base + c. */
  readonly base: number;
  /** Trigram number → dense id (ids in the order of the numbers). */
  readonly gramIds: Map<number, number>;
  readonly starts: Int32Array;
  readonly placeStem: Int32Array;
  readonly placeKey: Int32Array;
  /** Per gram: its shortest stem length, and where its places of each length start (`firstOfLength`). */
  readonly minLen: Int32Array;
  readonly lenStart: Int32Array;
  readonly byLength: Int32Array;
  /** Per dense id: step 3's postings, made on first read (`targetPostings`). */
  readonly postings: (Int32Array | undefined)[];
}

/**
 * The folded stems sorted, searched as a trie without building one: a node is the range of sorted
 * stems sharing a prefix, its children found by binary search. A node carries its Levenshtein row
 * against the target; the row's minimum never falls from parent to child, so it bounds the distance
 * of every stem below. Nodes are expanded by that bound, smallest first (a bucket per bound, see
 * `search`), and a stem ending is queued with its exact distance: the nearest stem wins, ties to the
 * raw stem first in code-unit order (the smallest rank of a raw stem below a node is a range
 * minimum, so a node that cannot beat the best ending is skipped), exactly as
 * `closestBruteForce` answers (test/closest-index.test.ts). Stems that share a prefix (type prefixes,
 * dates, topic words) are compared once for it, and no node whose bound passes the maximum — or is
 * beaten by the answer — is expanded. Memoized per folded target for the run.
 */
class StemIndex {
  /** Folded stems in code-unit order. */
  private readonly sorted: string[];
  /** rank[i]: the position of sorted[i]'s raw stem in code-unit order of raw stems. */
  private readonly rank: Int32Array;
  private readonly rawByRank: string[];
  /** Sparse tables of range minima: of `rank`, of stem lengths, of negated stem lengths (maxima). */
  private readonly minTable: Int32Array[] = [];
  private readonly lenMin: Int32Array[] = [];
  private readonly lenMax: Int32Array[] = [];
  private readonly memo = new Map<string, string | null>();

  constructor(stems: readonly string[]) {
    const rawByRank = [...stems].sort(codeUnitOrder);
    const rankOf = new Map<string, number>();
    rawByRank.forEach((s, i) => rankOf.set(s, i));
    const pairs = stems.map((s) => ({ f: fold(s), r: rankOf.get(s)! }));
    pairs.sort((a, b) => codeUnitOrder(a.f, b.f) || a.r - b.r);
    this.sorted = pairs.map((p) => p.f);
    this.rank = Int32Array.from(pairs, (p) => p.r);
    this.rawByRank = rawByRank;
    sparseTable(this.minTable, this.rank);
    sparseTable(
      this.lenMin,
      Int32Array.from(this.sorted, (f) => f.length),
    );
    sparseTable(
      this.lenMax,
      Int32Array.from(this.sorted, (f) => -f.length),
    );
  }

  closest(t: string): string | null {
    const memo = this.memo.get(t);
    if (memo !== undefined) return memo;
    let answer: string | null = null;
    if (this.sorted.length > 0) {
      const max = maxDistance(t);
      // Typos first (exact, cheap: a narrow band); then the exact search within its budget; then trigrams.
      const near = Math.min(max, NEAR);
      let found = this.nearByGrams(t, near);
      // Where the trigram places do not apply, the trie within `NEAR_BUDGET` rows; past it, step 3 (step 2 would
      // cut sooner: it searches farther with fewer rows), from where this search stopped.
      if (found === CUT) found = this.search(t, near, NEAR_BUDGET);
      if (found === -1 && max > NEAR) found = this.search(t, max, SEARCH_BUDGET);
      answer = found === CUT ? this.fromGrams(t) : found < 0 ? null : this.rawByRank[found]!;
    }
    this.memo.set(t, answer);
    return answer;
  }

  private keys64: Float64Array = new Float64Array(64);
  /** A scratch array of `n` numbers to sort (valid until the next call). */
  private sortKeys(n: number): Float64Array {
    if (this.keys64.length < n) this.keys64 = new Float64Array(Math.max(n, this.keys64.length * 2));
    return this.keys64.subarray(0, n);
  }

  private bounds: Int32Array = new Int32Array(128);
  /** A scratch array of `2n` slice bounds (valid until the next call). */
  private slices(n: number): Int32Array {
    if (this.bounds.length < 2 * n) this.bounds = new Int32Array(Math.max(2 * n, this.bounds.length * 2));
    return this.bounds;
  }

  /** Distinct targets asked so far (`nearByGrams` builds the trigram postings only past `GRAMS_AFTER`). */
  private asked = 0;

  /**
   * The trigram places of every stem, built on first use (`placeIndex`): a trigram is a number made of its three
   * units' ids (`unitIds`, given in code-unit order, so grams compare as their strings do), `gramIds` gives its dense
   * id `g`, and its places are `placeStem[starts[g] … starts[g + 1])` (the stem's position in `sorted`) with, at the
   * same index, `placeKey` = stem length (at most `LEN_CAP`) * 1024 + where in the stem it starts (at most 1023);
   * ordered by (length, offset, position): the stems of one length at nearby offsets are one slice (`nearByGrams`
   * reads only the lengths within `k` of the target's).
   */
  private places: PlaceIndex | null = null;
  /** Per position in `sorted`: the stem's length. */
  private lens: Int32Array = new Int32Array(0);
  /** Per position in `sorted`: the last target occurrence counted for it (`nearByGrams`). */
  private lastOcc: Int32Array = new Int32Array(0);
  private occId = 0;

  private placeIndex(): PlaceIndex {
    if (this.places) return this.places;
    const { sorted } = this;
    const n = sorted.length;
    const lens = new Int32Array(n);
    const capped = new Int32Array(n);
    const seen = new Uint8Array(65536);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const s = sorted[i]!;
      lens[i] = s.length;
      capped[i] = Math.min(s.length, LEN_CAP);
      if (s.length >= 3) total += s.length - 2;
      for (let q = 0; q < s.length; q++) seen[s.charCodeAt(q)] = 1;
    }
    const unitIds = new Int32Array(65536);
    let units = 0;
    for (let u = 0; u < 65536; u++) if (seen[u]) unitIds[u] = ++units;
    const base = units + 1;
    // Every stem's places in stem then offset order: their grams (ids in order of appearance first).
    const gramIds = new Map<number, number>();
    const gramOfPlace = new Int32Array(total);
    const numbers: number[] = [];
    const firstPlace = new Int32Array(n + 1);
    let at = 0;
    for (let i = 0; i < n; i++) {
      firstPlace[i] = at;
      const s = sorted[i]!;
      for (let q = 0; q + 3 <= s.length; q++) {
        const key =
          (unitIds[s.charCodeAt(q)]! * base + unitIds[s.charCodeAt(q + 1)]!) * base + unitIds[s.charCodeAt(q + 2)]!;
        let g = gramIds.get(key);
        if (g === undefined) {
          gramIds.set(key, (g = numbers.length));
          numbers.push(key);
        }
        gramOfPlace[at++] = g;
      }
    }
    firstPlace[n] = at;
    // Dense ids renumbered in the grams' order (their numbers, as their strings compare): step 3 reads a target's
    // grams in that order by sorting their ids.
    const grams = numbers.length;
    const byNumber = Float64Array.from(numbers).sort();
    const renumber = new Int32Array(grams);
    for (let g = 0; g < grams; g++) gramIds.set(byNumber[g]!, g);
    for (let g = 0; g < grams; g++) renumber[g] = gramIds.get(numbers[g]!)!;
    const starts = new Int32Array(grams + 1);
    for (let c = 0; c < total; c++) starts[(gramOfPlace[c] = renumber[gramOfPlace[c]!]!) + 1]!++;
    for (let g = 0; g < grams; g++) starts[g + 1]! += starts[g]!;
    const fill = starts.slice(0, grams);
    const placeStem = new Int32Array(total);
    const placeKey = new Int32Array(total);
    // The stems by (length, position), then offset by offset over each length's stems: every gram's places come out
    // in (length, offset, position) order without a sort.
    const byLen = Int32Array.from({ length: n }, (_, i) => i).sort((x, y) => capped[x]! - capped[y]! || x - y);
    for (let from = 0; from < n;) {
      const len = capped[byLen[from]!]!;
      let to = from + 1,
        longest = lens[byLen[from]!]!;
      while (to < n && capped[byLen[to]!] === len) longest = Math.max(longest, lens[byLen[to++]!]!);
      for (let q = 0; q + 3 <= longest; q++) {
        const key = len * 1024 + (q < 1023 ? q : 1023);
        for (let c = from; c < to; c++) {
          const i = byLen[c]!;
          if (firstPlace[i]! + q >= firstPlace[i + 1]!) continue; // this stem is shorter
          const slot = fill[gramOfPlace[firstPlace[i]! + q]!]!++;
          placeStem[slot] = i;
          placeKey[slot] = key;
        }
      }
      from = to;
    }
    // Per gram, where each stem length's places start: lengths minLen[g] … (the longest) + 1, from lenStart[g] on.
    const minLen = new Int32Array(grams);
    const lenStart = new Int32Array(grams + 1);
    for (let g = 0; g < grams; g++) {
      minLen[g] = placeKey[starts[g]!]! >> 10;
      lenStart[g + 1] = lenStart[g]! + (placeKey[starts[g + 1]! - 1]! >> 10) - minLen[g]! + 2;
    }
    const byLength = new Int32Array(lenStart[grams]!);
    for (let g = 0; g < grams; g++) {
      let c = starts[g]!;
      for (let d = lenStart[g]!, len = minLen[g]!; d < lenStart[g + 1]!; d++, len++) {
        while (c < starts[g + 1]! && placeKey[c]! >> 10 < len) c++;
        byLength[d] = c;
      }
    }
    this.places = {
      unitIds,
      base,
      gramIds,
      starts,
      placeStem,
      placeKey,
      minLen,
      lenStart,
      byLength,
      postings: new Array(grams),
    };
    this.lens = lens;
    this.lastOcc = new Int32Array(n);
    this.scratch();
    return this.places;
  }

  /** The dense id of the trigram of `t` at `p` (see `places`), or -1 when no stem holds it. */
  private gramAt(index: PlaceIndex, t: string, p: number): number {
    const { unitIds, base } = index;
    const a = unitIds[t.charCodeAt(p)]!,
      b = unitIds[t.charCodeAt(p + 1)]!,
      c = unitIds[t.charCodeAt(p + 2)]!;
    return a === 0 || b === 0 || c === 0 ? -1 : (index.gramIds.get((a * base + b) * base + c) ?? -1);
  }

  /** The first of gram `g`'s places whose stem is `len` long or longer (see `places`). */
  private static firstOfLength(index: PlaceIndex, g: number, len: number): number {
    const d = len - index.minLen[g]!;
    if (d <= 0) return index.starts[g]!;
    const at = index.lenStart[g]! + d;
    return at < index.lenStart[g + 1]! ? index.byLength[at]! : index.starts[g + 1]!;
  }

  /**
   * Step 1 through trigram places: the nearest stem within `k` edits (ties to the smallest raw rank), or
   * -1 when none is — the answer `search(t, k, Infinity)` gives — or `CUT` when this way does not apply
   * (a short or very long target, too few targets asked yet, too many places to read or stems to
   * measure: the trie then). Why the stems measured hold every stem within `k` edits (the q-gram lemma
   * with positions): an edit destroys at most three of the target's trigram occurrences, so `k` edits
   * leave all but `3k` of them intact in the stem, each within `k` of its place in the target (only `k`
   * insertions and deletions can shift it). Of the `c` occurrences taken (the rarest trigrams, at least
   * `3k + 1`), a stem within `k` edits so holds at least `c - 3k` near their places.
   */
  private nearByGrams(t: string, k: number): number {
    const m = t.length;
    if (m < 3 * k + 3 || m > 1000 || ++this.asked <= GRAMS_AFTER) return CUT;
    const index = this.placeIndex();
    const { placeStem, placeKey } = index;
    const n = m - 2;
    const bounds = this.slices(n);
    // Of each occurrence's places only the slice of stems of lengths m - k … m + k is read: a stem within `k` edits
    // is that long.
    // The slices smallest first, ties in place order: sorted as numbers (size * 1024 + place; n < 1024), the
    // order a stable sort by size gives.
    const order = this.sortKeys(n);
    for (let p = 0; p < n; p++) {
      const g = this.gramAt(index, t, p);
      let lo = 0,
        hi = 0;
      if (g >= 0) {
        lo = StemIndex.firstOfLength(index, g, m - k);
        hi = StemIndex.firstOfLength(index, g, m + k + 1);
      }
      bounds[2 * p] = lo;
      bounds[2 * p + 1] = hi;
      order[p] = (hi - lo) * 1024 + p;
    }
    order.sort();
    let taken = 0,
      places = 0;
    for (; taken < n; taken++) {
      const size = Math.floor(order[taken]! / 1024);
      if (taken > 3 * k && places + size > NEAR_PLACES_SOFT) break;
      places += size;
    }
    if (places > NEAR_PLACES) return CUT;
    count('resolve.nearPlaces', places);
    const need = taken - 3 * k;
    const { sorted, rank, shared, touched, lastOcc } = this;
    let nTouched = 0;
    for (let o = 0; o < taken; o++) {
      const p = order[o]! % 1024,
        hi = bounds[2 * p + 1]!,
        id = ++this.occId;
      for (let c = bounds[2 * p]!; c < hi; c++) {
        const q = placeKey[c]! & 1023;
        if (q > p + k || q < p - k) continue;
        const i = placeStem[c]!;
        if (lastOcc[i] === id) continue; // this occurrence already counted for this stem
        lastOcc[i] = id;
        if (shared[i] === 0) touched[nTouched++] = i;
        shared[i]!++;
      }
    }
    // The stems that pass (kept at the front of `touched`).
    let nPass = 0;
    for (let c = 0; c < nTouched; c++) {
      const i = touched[c]!;
      if (shared[i]! >= need && Math.abs(sorted[i]!.length - m) <= k) touched[nPass++] = i;
      shared[i] = 0;
    }
    if (nPass > NEAR_MEASURED) return CUT;
    let bestRank = -1,
      bestD = k + 1;
    for (let c = 0; c < nPass; c++) {
      const i = touched[c]!;
      const d = editDistance(t, sorted[i]!, bestD > k ? k : bestD);
      if (d < bestD || (d === bestD && rank[i]! < bestRank)) {
        bestD = d;
        bestRank = rank[i]!;
      }
    }
    return bestRank;
  }

  /** The exact answer, whatever the work (tests and measurements compare the budgeted one with it). */
  exact(t: string): string | null {
    if (this.sorted.length === 0) return null;
    const found = this.search(t, maxDistance(t), Infinity);
    return found < 0 ? null : this.rawByRank[found]!;
  }

  /** The smallest rank in sorted[lo, hi). */
  private minRank(lo: number, hi: number): number {
    return rangeMin(this.minTable, lo, hi);
  }

  /** Rows of the current search, one after another (`m + 1` cells each); reused between searches. */
  private pool = new Int32Array(1 << 16);

  /**
   * Entries waiting, as parallel arrays (no object per node): a bucket per key (0…max, the bound is
   * a small integer), each a stack linked through `eNext`. Reused between searches.
   */
  private eRank: Int32Array = new Int32Array(1024);
  private eP: Int32Array = new Int32Array(1024);
  private eLo: Int32Array = new Int32Array(1024);
  private eHi: Int32Array = new Int32Array(1024);
  private eRow: Int32Array = new Int32Array(1024);
  private eNext: Int32Array = new Int32Array(1024);
  private heads = new Int32Array(16);
  private entries = 0;

  private push(key: number, rank: number, p: number, lo: number, hi: number, row: number): void {
    const n = this.entries++;
    if (n === this.eRank.length) {
      const grow = (a: Int32Array): Int32Array => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.eRank = grow(this.eRank);
      this.eP = grow(this.eP);
      this.eLo = grow(this.eLo);
      this.eHi = grow(this.eHi);
      this.eRow = grow(this.eRow);
      this.eNext = grow(this.eNext);
    }
    this.eRank[n] = rank;
    this.eP[n] = p;
    this.eLo[n] = lo;
    this.eHi[n] = hi;
    this.eRow[n] = row;
    this.eNext[n] = this.heads[key]!;
    this.heads[key] = n;
  }

  /**
   * Buckets by key, smallest first. Every ancestor of a stem at distance d has a key ≤ d, so when
   * bucket d is empty every stem at distance ≤ d has been queued as an ending (key = its exact
   * distance): the first bucket that yields an ending holds the nearest stems, and of those the one
   * with the smallest raw rank is the answer (an entry whose smallest rank below is not smaller than
   * the best ending found is skipped). The same answer as taking entries best first by (key, rank).
   */
  private search(t: string, max: number, budget: number): number {
    const { sorted } = this;
    const m = t.length;
    const w = m + 1;
    const cap = max + 1;
    let pool = this.pool;
    for (let j = 0; j <= m; j++) pool[j] = j;
    let used = w;
    if (this.heads.length <= max) this.heads = new Int32Array(max + 1);
    this.heads.fill(-1);
    this.entries = 0;
    this.push(0, this.minRank(0, sorted.length), 0, 0, sorted.length, 0);
    let best = -1;
    let rows = 0;
    for (let key = 0; key <= max; key++) {
      while (this.heads[key] !== -1) {
        const e = this.heads[key]!;
        this.heads[key] = this.eNext[e]!;
        const rank = this.eRank[e]!;
        if (best >= 0 && rank >= best) continue; // nothing below is nearer, or as near and first
        const prev = this.eRow[e]!;
        if (prev < 0) {
          best = rank;
          continue;
        } // a stem ending at exactly this distance
        const p = this.eP[e]!,
          hi = this.eHi[e]!;
        let i = this.eLo[e]!;
        // Stems that end at this node sort first in its range.
        const endStart = i;
        while (i < hi && sorted[i]!.length === p) i++;
        if (i > endStart && pool[prev + m]! <= max)
          this.push(pool[prev + m]!, this.minRank(endStart, i), p, endStart, i, -1);
        // Cells farther than `max` from the diagonal exceed it: only the band is computed, the rest
        // holds max + 1 (a cell is exact whenever it is ≤ max, and above max otherwise).
        const from = Math.max(1, p + 1 - max),
          to = Math.min(m, p + 1 + max);
        while (i < hi) {
          const c = sorted[i]!.charCodeAt(p);
          // The end of this child: the first stem in [i, hi) whose code unit at p is not c (galloping
          // from i, then a binary search: children are mostly small).
          let a = i + 1,
            b = a;
          for (let step = 1; b < hi && sorted[b]!.charCodeAt(p) === c; step *= 2) {
            a = b + 1;
            b = a + step;
          }
          if (b > hi) b = hi;
          while (a < b) {
            const mid = (a + b) >>> 1;
            if (sorted[mid]!.charCodeAt(p) === c) a = mid + 1;
            else b = mid;
          }
          if (++rows > budget) {
            this.cutKey = key;
            this.cutBest = best;
            return CUT;
          }
          count('resolve.trieRows');
          // A stem below is t[0..j) aligned with its first p + 1 units (cost cur[j]) and then its
          // remaining units against t[j..m): at least the difference of their lengths.
          const restMin = rangeMin(this.lenMin, i, a) - p - 1,
            restMax = -rangeMin(this.lenMax, i, a) - p - 1;
          if (used + w > pool.length) {
            const grown = new Int32Array(pool.length * 2);
            grown.set(pool);
            pool = this.pool = grown;
          }
          const cur = used;
          pool[cur] = p + 1 <= max ? p + 1 : cap;
          let low = pool[cur]! + gap(m, restMin, restMax);
          // Outside the band only the cells a later row or an ending reads are set (to max + 1): the
          // one just before it, the one just after it, and the last.
          if (from > 1) pool[cur + from - 1] = cap;
          for (let j = from; j <= to; j++) {
            const sub = pool[prev + j - 1]! + (t.charCodeAt(j - 1) === c ? 0 : 1);
            const del = pool[prev + j]! + 1;
            const ins = pool[cur + j - 1]! + 1;
            let v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
            if (v > cap) v = cap;
            pool[cur + j] = v;
            const bound = v + gap(m - j, restMin, restMax);
            if (bound < low) low = bound;
          }
          if (to < m) {
            pool[cur + to + 1] = cap;
            pool[cur + m] = cap;
          }
          if (low <= max) {
            this.push(low > key ? low : key, this.minRank(i, a), p + 1, i, a, cur);
            used += w;
          }
          i = a;
        }
      }
      if (best >= 0) return best;
    }
    return -1;
  }

  /** Where the last cut search stopped: every stem nearer than `cutKey` is ruled out; `cutBest` the best ending at `cutKey` seen, or -1. */
  private cutKey = 0;
  private cutBest = -1;
  /** Per stem of fewer than three units (it has no trigram place): its one gram (see `distinctGrams`) → positions in `sorted`. */
  private shortGrams: Map<number, number[]> | null = null;
  /** Per position in `sorted`: trigrams shared with the current target (zero between searches). */
  private shared: Int32Array = new Int32Array(0);
  private touched: Int32Array = new Int32Array(0);
  /** The best trigram candidates of the current target, ascending (`GRAM_CANDIDATES` of them at most). */
  private keys: Float64Array = new Float64Array(GRAM_CANDIDATES);
  /** posByRank[r]: the position in `sorted` of the stem of raw rank r. */
  private posByRank: Int32Array = new Int32Array(0);

  /** `shared` and `touched` sized for the stems (zero between searches; `fromGrams` and `nearByGrams` share them). */
  private scratch(): void {
    const n = this.sorted.length;
    if (this.shared.length === n) return;
    this.shared = new Int32Array(n);
    this.touched = new Int32Array(n);
  }

  /**
   * The postings step 3 reads for a target: per distinct gram of `t` that some stem holds, in the gram's order (its
   * units' code-unit order), the positions in `sorted` of the stems holding it, ascending, each once. A trigram's
   * postings are its places' stems (`stemsOfPlaces`), made on first read and kept (step 3 reads the grams of the
   * targets it is given, not all); a target of fewer than three units has one gram, the short stems that are it.
   */
  private targetPostings(t: string): Int32Array[] {
    const out: Int32Array[] = [];
    if (t.length < 3) {
      const g = distinctGrams(t)[0]!;
      let list = this.shortPostings.get(g);
      if (list === undefined) {
        const short = this.shortGrams!.get(g);
        if (short === undefined) return out;
        this.shortPostings.set(g, (list = Int32Array.from(short)));
      }
      out.push(list);
      return out;
    }
    const index = this.placeIndex();
    const n = t.length - 2;
    const ids = this.sortKeys(n);
    let known = 0;
    for (let p = 0; p < n; p++) {
      const g = this.gramAt(index, t, p);
      if (g >= 0) ids[known++] = g;
    }
    // Dense ids are in the grams' order (see `placeIndex`).
    const sortedIds = ids.subarray(0, known).sort();
    for (let c = 0; c < known; c++) {
      if (c > 0 && sortedIds[c] === sortedIds[c - 1]) continue;
      const g = sortedIds[c]!;
      out.push((index.postings[g] ??= stemsOfPlaces(index.placeStem.subarray(index.starts[g]!, index.starts[g + 1]!))));
    }
    return out;
  }
  private readonly shortPostings = new Map<number, Int32Array>();

  /** What step 3 needs besides the postings: the short stems' grams, `posByRank` and the scratch arrays (made once). */
  private gramReady(): void {
    if (this.shortGrams) return;
    const shortGrams = new Map<number, number[]>();
    const { sorted } = this;
    for (let i = 0; i < sorted.length; i++) {
      if (sorted[i]!.length >= 3) continue;
      const g = distinctGrams(sorted[i]!)[0]!;
      const list = shortGrams.get(g);
      if (list) list.push(i);
      else shortGrams.set(g, [i]);
    }
    this.shortGrams = shortGrams;
    const n = sorted.length;
    this.placeIndex();
    this.posByRank = new Int32Array(n);
    for (let i = 0; i < n; i++) this.posByRank[this.rank[i]!] = i;
  }

  /**
   * A target the exact search gave up on: the stems sharing the most of its rarer trigrams (a trigram
   * in more than `GRAM_POSTING_CAP` stems is not read, at most `GRAM_READ_BUDGET` postings in all,
   * rarest first), the first `GRAM_CANDIDATES` of them by shared count then raw rank, are measured
   * exactly; the nearest within the maximum wins, ties to the raw stem first in code-unit order —
   * the exact rule over fewer stems. The stem the cut search had already found at its bound (if
   * any) competes too.
   */
  private fromGrams(t: string): string | null {
    this.gramReady();
    const max = maxDistance(t);
    const found: Int32Array[] = [];
    for (const list of this.targetPostings(t)) if (list.length <= GRAM_POSTING_CAP) found.push(list);
    // Shortest first, ties in gram order: sorted as numbers (length * count + place), as a stable sort by length.
    const nFound = found.length;
    const order = this.sortKeys(nFound);
    for (let g = 0; g < nFound; g++) order[g] = found[g]!.length * nFound + g;
    order.sort();
    const { shared, touched, sorted, rank, lens } = this;
    let nTouched = 0;
    let read = 0;
    for (let o = 0; o < nFound; o++) {
      const list = found[order[o]! % nFound]!;
      if (read + list.length > GRAM_READ_BUDGET) break;
      read += list.length;
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!;
        if (shared[i] === 0) touched[nTouched++] = i;
        shared[i]!++;
      }
    }
    count('resolve.gramPostings', read);
    // Most shared first, then the smallest raw rank: one key per stem near enough in length (keys are
    // distinct: ranks are). The GRAM_CANDIDATES largest are kept in ascending order as they come.
    const m = t.length;
    const top = this.keys;
    let nKeys = 0;
    for (let k = 0; k < nTouched; k++) {
      const i = touched[k]!;
      if (Math.abs(lens[i]! - m) <= max) {
        const key = shared[i]! * 4294967296 - rank[i]!;
        if (nKeys < GRAM_CANDIDATES) {
          let at = nKeys++;
          for (; at > 0 && top[at - 1]! > key; at--) top[at] = top[at - 1]!;
          top[at] = key;
        } else if (key > top[0]!) {
          // The smallest leaves; the new key moves up to its place.
          let at = 0;
          for (; at + 1 < nKeys && top[at + 1]! < key; at++) top[at] = top[at + 1]!;
          top[at] = key;
        }
      }
      shared[i] = 0;
    }
    let bestRank = this.cutBest,
      bestD = this.cutBest >= 0 ? this.cutKey : max + 1;
    for (let k = nKeys - 1; k >= 0; k--) {
      const r = -(top[k]! % 4294967296 || 0),
        i = this.posByRank[r < 0 ? r + 4294967296 : r]!;
      const d = editDistance(t, sorted[i]!, bestD > max ? max : bestD);
      if (d < bestD || (d === bestD && rank[i]! < bestRank)) {
        bestD = d;
        bestRank = rank[i]!;
      }
    }
    return bestRank >= 0 && bestD <= max ? this.rawByRank[bestRank]! : null;
  }
}

/** `search` gave up within its budget. */
const CUT = -2;
/** Distinct targets answered by the trie alone before the trigram postings are built for step 1 (a vault with a few broken links does not pay for them). */
const GRAMS_AFTER = 16;
/**
 * Trigram places step 1 reads at most; past it, the trie (so the work per target stays bounded). With
 * `NEAR_MEASURED`, measured on the hard shape at 10k (session 18, instruction counts): 2000 and 64 sent 3,238 of
 * 16,181 targets to the trie (~270 rows each); 4000 and 256 send 980, for ~7% fewer instructions in did-you-mean;
 * more of either costs more than the trie saves (8000 places, or 512 measured). Session 19 (places read only for the
 * stem lengths within `k`): 20,000 and 2,000 sent almost no target to the trie but cost 1% more instructions at hard
 * 30k than these (the many stems measured instead), and changed 7 answers there (the trie past `NEAR_BUDGET`): kept.
 */
const NEAR_PLACES = 4000;
/** Places step 1 reads beyond the `3k + 1` occurrences it needs, to measure fewer stems. */
const NEAR_PLACES_SOFT = 300;
/** Stem lengths `placeIndex` tells apart (longer ones count as this long: step 1 takes targets of 1,000 units at most). */
const LEN_CAP = 1023;
/** Stems step 1 measures at most; when more pass its filter, the trie. */
const NEAR_MEASURED = 256;

/** The stems of a trigram's places (their positions in `sorted`, in any order: `placeIndex`), each once, ascending. */
export function stemsOfPlaces(places: Int32Array): Int32Array {
  const stems = places.slice().sort();
  let n = 0;
  for (let c = 0; c < stems.length; c++) if (c === 0 || stems[c] !== stems[c - 1]) stems[n++] = stems[c]!;
  return stems.slice(0, n);
}

/** Every trigram occurrence of a folded target of three units or more, as numbers (see `distinctGrams`), sorted. */
function occurrences(s: string): Float64Array {
  const out = new Float64Array(Math.max(0, s.length - 2));
  for (let i = 0; i + 3 <= s.length; i++)
    out[i] = s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);
  return out.sort();
}

/** The distinct trigrams of a folded stem as numbers (three UTF-16 units), sorted; a stem shorter than three is one (negative) gram. */
function distinctGrams(s: string): number[] {
  if (s.length < 3)
    return [
      -1 -
        (s.length === 0 ? 0 : s.length === 1 ? s.charCodeAt(0) + 1 : (s.charCodeAt(0) + 1) * 65537 + s.charCodeAt(1)),
    ];
  const all = occurrences(s);
  const out: number[] = [];
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) out.push(all[i]!);
  return out;
}

const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** How far x lies outside [lo, hi]. */
const gap = (x: number, lo: number, hi: number): number => (x < lo ? lo - x : x > hi ? x - hi : 0);

function sparseTable(levels: Int32Array[], values: Int32Array): void {
  levels.push(values);
  for (let k = 1; 1 << k <= values.length; k++) {
    const prev = levels[k - 1]!,
      half = 1 << (k - 1);
    const level = new Int32Array(values.length - (1 << k) + 1);
    for (let i = 0; i < level.length; i++) level[i] = Math.min(prev[i]!, prev[i + half]!);
    levels.push(level);
  }
}
/** The smallest value in [lo, hi) of the table's values. */
function rangeMin(levels: readonly Int32Array[], lo: number, hi: number): number {
  const k = 31 - Math.clz32(hi - lo);
  return Math.min(levels[k]![lo]!, levels[k]![hi - (1 << k)]!);
}
