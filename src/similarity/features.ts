/** Per-note text features and the similarity pass shared by the duplicate, contradiction and incident stages. */
import type { VaultFile } from '../vault/model.js';
import { lshPairCodes, signature } from './minhash.js';
import { similarity, THRESHOLDS } from './score.js';
import { count } from '../util/counters.js';
import { radixSortByKey, sortUniquePrefix } from '../util/radix.js';
import { isCjk, isNumberToken, NEGATIONS, statedText, STOPWORDS, textShingleHashes, tokens } from './text.js';

export interface NoteFeatures {
  readonly note: VaultFile;
  /** Sorted distinct shingle hashes. */
  readonly shingles: Uint32Array;
  readonly signature: Uint32Array;
  /** Its distinct subject terms (`isSubjectTerm`), as numbers shared by the notes of one `noteFeatures` call. */
  readonly terms: Uint32Array;
  /** Tokens of the stated text, computed when a stage asks (not kept for every note). */
  tokens(): readonly string[];
}

export interface SimilarPair {
  readonly a: number;
  readonly b: number;
  readonly jaccard: number;
  readonly containment: number;
}

export function noteFeatures(notes: readonly VaultFile[]): NoteFeatures[] {
  // The subject terms are read in the shingles' own scan of the stated text (one scan, one stated text per note).
  const terms = new SubjectTerms();
  return notes.map((note) => {
    const text = statedText(note);
    terms.begin(text);
    const hashes = textShingleHashes(text, terms.visit);
    return {
      note,
      shingles: hashes,
      signature: signature(hashes),
      terms: terms.done(),
      tokens: () => tokens(statedText(note)),
    };
  });
}

/** Candidates from LSH, confirmed with exact Jaccard and containment. Tuned for recall. */
export const SIMILAR = { jaccard: 0.4, containment: 0.7, minShingles: THRESHOLDS.minShinglesForContainment } as const;

/**
 * A short note inside a long one has a low Jaccard similarity, so LSH rarely pairs them. Notes
 * sharing several rare shingles (used by few notes) are candidates too.
 */
export function rareShingleCandidates(features: readonly NoteFeatures[], maxDf = 20): [number, number][] {
  const out: [number, number][] = [];
  const n = features.length;
  const runs = rareRuns(n, (i) => features[i]!.shingles, maxDf);
  // A pair's count is the number of lists holding both notes (each list's notes are distinct), so it is at most the
  // number of lists holding its smaller note (fewer shingles): a pair can pass only if that note is in at least 3
  // lists and in `need` of its own length. Only lists holding such a note can hold a passing pair, and every list
  // two notes share holds that note: the passing pairs get the same counts from those lists alone, in the same
  // order (visitRareLists: a ascending, then each b where a's lists first reach it), and the other pairs count no
  // more than before, so they still fail. On the hard shape most notes are in too few rare lists to pass.
  const need = (i: number): number => features[i]!.shingles.length * SIMILAR.containment * 0.8;
  const { starts, flat, lists } = runs;
  const degree = new Int32Array(n);
  for (let j = 0; j < starts[lists]!; j++) degree[flat[j]!]!++;
  const able = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (degree[i]! >= 3 && degree[i]! >= need(i)) able[i] = 1;
  // The lists as arrays only when kept (at hard 10k: 307,728 lists, few kept).
  const kept: number[][] = [];
  for (let k = 0; k < lists; k++)
    for (let j = starts[k]!; j < starts[k + 1]!; j++)
      if (able[flat[j]!] === 1) {
        kept.push(listAt(runs, k));
        break;
      }
  visitRareLists(n, kept, (a, b, count) => {
    const small = Math.min(features[a]!.shingles.length, features[b]!.shingles.length);
    if (count >= 3 && count >= small * SIMILAR.containment * 0.8) out.push([a, b]);
  });
  return out;
}

/**
 * The rare lists of 32-bit keys (a note's shingle hashes): every (key, item) pair in two typed arrays,
 * sorted by key with a stable radix sort (items stay ascending within a key), then read as runs. The same
 * lists as a map of postings (key → notes) gives, in key order rather than first-seen order; at hard 10k that
 * map held ~4.6 M number keys (most above the small-integer range, so boxed) and was most of the pass.
 */
export function rareHashLists(n: number, keysOf: (i: number) => Uint32Array, maxDf: number): number[][] {
  const runs = rareRuns(n, keysOf, maxDf);
  const out: number[][] = [];
  for (let k = 0; k < runs.lists; k++) out.push(listAt(runs, k));
  return out;
}

/** rareHashLists' lists in two typed arrays: list k is `flat[starts[k], starts[k + 1])`, for k below `lists`. */
interface RareRuns {
  readonly starts: Int32Array;
  readonly flat: Int32Array;
  readonly lists: number;
}

function listAt(runs: RareRuns, k: number): number[] {
  const list: number[] = [];
  for (let j = runs.starts[k]!; j < runs.starts[k + 1]!; j++) list.push(runs.flat[j]!);
  return list;
}

function rareRuns(n: number, keysOf: (i: number) => Uint32Array, maxDf: number): RareRuns {
  let total = 0;
  for (let i = 0; i < n; i++) total += keysOf(i).length;
  let keys: Uint32Array = new Uint32Array(total);
  let items: Int32Array = new Int32Array(total);
  for (let i = 0, w = 0; i < n; i++) {
    const k = keysOf(i);
    keys.set(k, w);
    items.fill(i, w, w + k.length);
    w += k.length;
  }
  ({ keys, items } = radixSortByKey(keys, items));
  const flat = new Int32Array(total);
  // A list holds two items at least: at most total / 2 lists.
  const starts = new Int32Array((total >> 1) + 1);
  let lists = 0;
  let w = 0;
  for (let s = 0; s < total;) {
    let e = s + 1;
    while (e < total && keys[e] === keys[s]) e++;
    if (e - s === 1) {
      s = e;
      continue;
    }
    // Distinct items of the run (a key listed twice by one item counts once), at most maxDf + 1 of them.
    const from = w;
    for (let j = s; j < e && w - from <= maxDf; j++) if (w === from || flat[w - 1] !== items[j]) flat[w++] = items[j]!;
    if (w - from >= 2 && w - from <= maxDf) starts[++lists] = w;
    else w = from;
    s = e;
  }
  return { starts, flat, lists };
}

/**
 * For every pair of items sharing keys that at most `maxDf` items have, how many such keys they
 * share; pairs are coded `a * n + b` (a < b). Rare shingles find a note inside a longer one; rare
 * terms find two notes on one subject.
 */
export function sharedRareKeys<K>(n: number, keysOf: (i: number) => Iterable<K>, maxDf: number): Map<number, number> {
  // Each distinct key as a number (first seen, first numbered), then the rare lists of rareShingleCandidates: a
  // radix sort of (key number, item) pairs, not a map of a posting array per key.
  const numbers = new Map<K, number>();
  const keyed: Uint32Array[] = [];
  for (let i = 0; i < n; i++) {
    const ids: number[] = [];
    for (const k of keysOf(i)) {
      let id = numbers.get(k);
      if (id === undefined) numbers.set(k, (id = numbers.size));
      ids.push(id);
    }
    keyed.push(Uint32Array.from(ids));
  }
  numbers.clear();
  return rareKeyCounts(n, keyed, maxDf);
}

/** sharedRareKeys of numbered keys (each item's numbers once): the pairs' counts from the radix-sorted rare lists. */
function rareKeyCounts(n: number, keyed: readonly Uint32Array[], maxDf: number): Map<number, number> {
  const counts = new Map<number, number>();
  visitRuns(
    n,
    rareRuns(n, (i) => keyed[i]!, maxDf),
    (a, b, count) => counts.set(a * n + b, count),
  );
  return counts;
}

/**
 * A subject term: a token of three characters or more that is not a stop word, not CJK, and does not open with a
 * digit. Rare ones (few notes use them) are what a subject is made of (the contradictions stage).
 */
export const isSubjectTerm = (t: string): boolean => !STOPWORDS.has(t) && t.length >= 3 && !isCjk(t) && !/^\d/.test(t);

/**
 * Subject terms (`isSubjectTerm`) numbered across texts, one number per term, each text's numbers once: a text is
 * `begin(text)`, its tokens handed to `visit` in `scanTokens`' order (stop words already dropped), then `done()`. No
 * string per token: a term is looked up in one open-addressing table keyed by its FNV-1a state, a hit confirmed against
 * the term's characters (lower-cased in place); only a term's first sight makes its string.
 */
class SubjectTerms {
  private slots = new Int32Array(4096); // term number + 1; 0: empty
  private readonly terms: string[] = [];
  private readonly states: number[] = [];
  private seenIn = new Int32Array(1024).fill(-1); // per term, the last text it was listed for
  private ids = new Uint32Array(256);
  private k = 0;
  private text = '';
  private item = -1;

  begin(text: string): void {
    this.text = text;
    this.item++;
    this.k = 0;
  }

  done(): Uint32Array {
    return this.ids.slice(0, this.k);
  }

  readonly visit = (from: number, to: number, word: string | undefined, h: number): void => {
    if (word === undefined) {
      // An ASCII token: never CJK; a stop word was not handed on.
      const c = this.text.charCodeAt(from);
      if (to - from < 3 || (c >= 0x30 && c <= 0x39)) return;
    } else if (word.length < 3 || isCjk(word) || /^\d/.test(word)) return;
    const id = this.numberOf(h, word, from, to);
    if (this.seenIn[id] === this.item) return;
    this.seenIn[id] = this.item;
    if (this.k === this.ids.length) {
      const more = new Uint32Array(this.ids.length * 2);
      more.set(this.ids);
      this.ids = more;
    }
    this.ids[this.k++] = id;
  };

  private sameLower(term: string, from: number, to: number): boolean {
    if (term.length !== to - from) return false;
    for (let q = 0; q < term.length; q++) {
      const c = this.text.charCodeAt(from + q);
      if (term.charCodeAt(q) !== (c >= 0x41 && c <= 0x5a ? c + 0x20 : c)) return false;
    }
    return true;
  }

  private numberOf(h: number, word: string | undefined, from: number, to: number): number {
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]!;
      if (e === 0) {
        const id = this.terms.push(word ?? this.text.slice(from, to).toLowerCase()) - 1;
        this.states.push(h);
        this.slots[s] = id + 1;
        if (2 * this.terms.length > this.slots.length) this.grow();
        if (id === this.seenIn.length) {
          const more = new Int32Array(this.seenIn.length * 2).fill(-1);
          more.set(this.seenIn);
          this.seenIn = more;
        }
        return id;
      }
      const id = e - 1;
      if (
        this.states[id] === h &&
        (word === undefined ? this.sameLower(this.terms[id]!, from, to) : this.terms[id] === word)
      )
        return id;
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let s = this.states[id]! & mask;
      while (this.slots[s] !== 0) s = (s + 1) & mask;
      this.slots[s] = id + 1;
    }
  }
}

/**
 * For every pair of notes sharing subject terms that at most `maxDf` notes use, how many they share (pairs coded
 * `a * n + b`, a < b): `sharedRareKeys(n, (i) => new Set(tokens(statedText(note i)).filter(isSubjectTerm)), maxDf)`,
 * from the term numbers note features made in their own scan of each note (test/rare-terms.test.ts).
 */
export function rareTermCounts(features: readonly NoteFeatures[], maxDf: number): Map<number, number> {
  return rareKeyCounts(
    features.length,
    features.map((f) => f.terms),
    maxDf,
  );
}

/** What rareTermCounts counts, handed to `visit(a, b, count)` pair by pair in the map's order, without the map. */
export function visitRareTerms(
  features: readonly NoteFeatures[],
  maxDf: number,
  visit: (a: number, b: number, count: number) => void,
): void {
  visitRuns(
    features.length,
    rareRuns(features.length, (i) => features[i]!.terms, maxDf),
    visit,
  );
}

/**
 * `visit(a, b, count)` once per pair (a < b) that shares one of the rare lists (each ascending, distinct
 * items), with how many it shares; a ascending. Each note's pairs are counted in one typed array (no
 * per-pair allocation); the work is the sum over the lists of their length², at most n × maxDf per list.
 */
export function visitRareLists(
  n: number,
  lists: readonly (readonly number[])[],
  visit: (a: number, b: number, count: number) => void,
): void {
  const starts = new Int32Array(lists.length + 1);
  for (let l = 0; l < lists.length; l++) starts[l + 1] = starts[l]! + lists[l]!.length;
  const flat = new Int32Array(starts[lists.length]!);
  for (let l = 0; l < lists.length; l++) flat.set(lists[l]!, starts[l]);
  visitRuns(n, { starts, flat, lists: lists.length }, visit);
}

/** visitRareLists of the lists in two typed arrays (`rareRuns`). */
function visitRuns(n: number, runs: RareRuns, visit: (a: number, b: number, count: number) => void): void {
  const { starts, flat, lists } = runs;
  // For each note the lists it is in (CSR).
  const degree = new Int32Array(n + 1);
  for (let j = 0; j < starts[lists]!; j++) degree[flat[j]! + 1]!++;
  for (let i = 0; i < n; i++) degree[i + 1]! += degree[i]!;
  const member = new Int32Array(degree[n]!);
  const fill = degree.slice(0, n);
  for (let l = 0; l < lists; l++) for (let j = starts[l]!; j < starts[l + 1]!; j++) member[fill[flat[j]!]!++] = l;
  const shared = new Int32Array(n);
  const touched = new Int32Array(n);
  let increments = 0;
  for (let a = 0; a < n; a++) {
    let t = 0;
    for (let m = degree[a]!; m < degree[a + 1]!; m++) {
      const l = member[m]!;
      // Lists are ascending: the notes after a are the pairs (a, b) with a < b.
      for (let x = starts[l + 1]! - 1; x >= starts[l]!; x--) {
        const b = flat[x]!;
        if (b <= a) break;
        if (shared[b] === 0) touched[t++] = b;
        shared[b]!++;
        increments++;
      }
    }
    for (let k = 0; k < t; k++) {
      const b = touched[k]!;
      visit(a, b, shared[b]!);
      shared[b] = 0;
    }
  }
  count('similarity.rareKeyPairIncrements', increments);
}

export function similarPairs(features: readonly NoteFeatures[]): SimilarPair[] {
  const out: SimilarPair[] = [];
  const n = features.length;
  // Both kinds of candidates as pair codes a * n + b, sorted and distinct: each pair compared once, in (a, b) order.
  const lsh = lshPairCodes(features.map((f) => f.signature));
  const rare = rareShingleCandidates(features);
  count('similarity.candidatePairs', lsh.length + rare.length);
  const codes = new Float64Array(lsh.length + rare.length);
  codes.set(lsh);
  for (let r = 0; r < rare.length; r++) codes[lsh.length + r] = rare[r]![0] * n + rare[r]![1];
  const m = sortUniquePrefix(codes, codes.length);
  for (let r = 0; r < m; r++) {
    const code = codes[r]!;
    const a = Math.floor(code / n),
      b = code - a * n;
    count('similarity.exactComparisons');
    const s = similarity(features[a]!.shingles, features[b]!.shingles);
    out.push({ a, b, jaccard: s.jaccard, containment: s.containment });
  }
  return out;
}

/** The same note, by the shared formula and threshold (score.ts). */
export const isSimilar = (p: SimilarPair): boolean => Math.max(p.jaccard, p.containment) >= THRESHOLDS.duplicate;

const DATE = /^\d{4}-\d{2}(-\d{2})?$/;

/** What differsInDigitsOrNegation reads of a note's tokens: its number tokens, those that are not dates, and whether it negates. */
export interface TokenDigest {
  readonly numbers: ReadonlySet<string>;
  readonly undated: readonly string[];
  readonly negated: boolean;
}

export function tokenDigest(toks: readonly string[]): TokenDigest {
  const numbers = new Set<string>();
  let negated = false;
  for (const t of toks) {
    if (isNumberToken(t)) numbers.add(t);
    else if (!negated && NEGATIONS.has(t)) negated = true;
  }
  return { numbers, undated: [...numbers].filter((t) => !DATE.test(t)), negated };
}

/**
 * Pairs that disagree rather than repeat: a number changed (one on each side that the other lacks;
 * dates do not count) or a negation present on one side only. They go to the contradiction stage.
 */
export function differsInDigitsOrNegation(
  ta: readonly string[],
  tb: readonly string[],
  options: { sameStatement?: boolean } = {},
): boolean {
  return digestsDiffer(tokenDigest(ta), tokenDigest(tb), options);
}

/**
 * differsInDigitsOrNegation from the two notes' digests (a note in many pairs is digested once). A number token
 * is among the other note's tokens exactly when it is among its number tokens.
 */
export function digestsDiffer(a: TokenDigest, b: TokenDigest, options: { sameStatement?: boolean } = {}): boolean {
  const onlyNumbers = (x: TokenDigest, y: TokenDigest): boolean => x.undated.some((t) => !y.numbers.has(t));
  if (onlyNumbers(a, b) && onlyNumbers(b, a)) return true;
  // A negation in the extra text of a longer note (a short note inside it) is not a flipped statement.
  if (options.sameStatement === false) return false;
  return a.negated !== b.negated;
}
