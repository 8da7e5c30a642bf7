/** Text views of a note for comparison: normalized tokens, shingles, sentences. */
import type { VaultFile } from '../vault/model.js';
import { FNV_OFFSET, FNV_PRIME, fnvState, hash32 } from './minhash.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN =
  /\d{1,3}(?:,\d{3})+(?:\.\d+)?|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}][\p{L}\p{N}_.'-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

export const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from as is are was were be been being it its this that these those ' +
    'i you he she we they me my your our their there here so than too very can could should would will just also into over about ' +
    'why how apply note see do does did has have had not no only now until since after before when while even because which what who whom whose where via per'
  ).split(' '),
);

/** "without" is not here: "do X without Y" negates Y, not X. */
export const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  "don't",
  'dont',
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "won't",
  "can't",
  'cannot',
  'avoid',
  'stop',
  'disable',
  'disabled',
  'forbid',
  'forbidden',
  'neither',
  'nor',
  // Other languages of the corpus: Portuguese, Spanish, French, German; Chinese and Japanese negators (one token per character).
  'não',
  'nunca',
  'jamais',
  'nem',
  'jamás',
  'pas',
  'nicht',
  'nie',
  'kein',
  'keine',
  '不',
  '没',
  '别',
  '勿',
  '禁',
]);

/** The text a note states: description and body, markdown syntax and front matter removed. */
export function statedText(note: Pick<VaultFile, 'text' | 'bodyOffset' | 'meta'>): string {
  const body = note.text.slice(note.bodyOffset);
  const desc = note.meta.description ?? '';
  return `${desc}\n${body}`
    .replace(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*(Why|How to apply):?\*\*:?/gi, ' ')
    .replace(/[*_>#`~|]+/g, ' ');
}

/** Lower-cased tokens; CJK text (no spaces) becomes one token per character. */
/**
 * TOKEN restricted to ASCII (after lower-casing, \p{L} is a-z and \p{N} is 0-9 there, and NFKC
 * changes nothing): the Unicode-property regex costs ~3× more on the ASCII text most notes are.
 * test/shingles.test.ts proves both give the same tokens.
 */
const TOKEN_ASCII = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|[a-z0-9][a-z0-9_.'-]*[a-z0-9]|[a-z0-9]/g;
const NON_ASCII = /[^\u0000-\u007f]/;

export function tokens(text: string): string[] {
  const out = NON_ASCII.test(text) ? mixedTokens(text) : (text.toLowerCase().match(TOKEN_ASCII) ?? []);
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    const last = t.charCodeAt(t.length - 1);
    if (last === 0x2e || last === 0x27 || last === 0x2d) out[i] = t.replace(/[.'-]+$/, ''); // . ' -
  }
  return out;
}

/**
 * `text.normalize('NFKC').toLowerCase().match(TOKEN)` for a text holding a non-ASCII character, read a run of
 * white-space-separated segments at a time: the runs of ASCII segments with TOKEN_ASCII, the others as before. A
 * token never holds ASCII white space, and NFKC and lower-casing never reach across it (the argument of
 * `textShingleHashes` below), so the tokens are the same; one non-ASCII character (an em dash, a CJK sentence) no
 * longer puts a whole long note through the Unicode regex. test/shingles.test.ts compares the two.
 */
function mixedTokens(text: string): string[] {
  const out: string[] = [];
  const flush = (from: number, to: number, ascii: boolean): void => {
    const part = text.slice(from, to);
    const found = ascii ? part.toLowerCase().match(TOKEN_ASCII) : part.normalize('NFKC').toLowerCase().match(TOKEN);
    if (found) for (const t of found) out.push(t);
  };
  const len = text.length;
  let from = 0;
  let runAscii = true;
  let empty = true;
  for (let p = 0; p < len;) {
    const c = text.charCodeAt(p);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) {
      p++;
      continue;
    }
    let e = p;
    let ascii = true;
    for (; e < len; e++) {
      const d = text.charCodeAt(e);
      if (d === 0x20 || d === 0x0a || d === 0x09 || d === 0x0d) break;
      if (d >= 0x80) ascii = false;
    }
    if (empty) {
      from = p;
      runAscii = ascii;
      empty = false;
    } else if (ascii !== runAscii) {
      flush(from, p, runAscii);
      from = p;
      runAscii = ascii;
    }
    p = e;
  }
  if (!empty) flush(from, len, runAscii);
  return out;
}

export const isCjk = (t: string): boolean => CJK.test(t);
export const isNumberToken = (t: string): boolean => /\d/.test(t);

/** Word bigrams (character bigrams inside CJK runs), stop words dropped outside CJK. */
export function shingles(toks: readonly string[]): Set<string> {
  const kept = toks.filter((t) => isCjk(t) || !STOPWORDS.has(t));
  const out = new Set<string>();
  if (kept.length === 1) out.add(kept[0]!);
  for (let i = 0; i + 1 < kept.length; i++) out.add(`${kept[i]} ${kept[i + 1]}`);
  return out;
}

/**
 * hashSet(shingles(toks)), without building the bigram strings: FNV-1a is continued from the
 * state after "a " into b. test/shingles.test.ts proves the two equal on every corpus note.
 */
export function shingleHashes(toks: readonly string[]): Uint32Array {
  // A CJK token is never a stop word (they are all ASCII): the filter in shingles() reduces to this.
  const kept = toks.filter((t) => !STOPWORDS.has(t));
  if (kept.length === 0) return new Uint32Array(0);
  if (kept.length === 1) return Uint32Array.of(hash32(kept[0]!));
  const afterSpace = new Int32Array(kept.length);
  for (let i = 0; i < kept.length; i++) afterSpace[i] = Math.imul(fnvState(FNV_OFFSET, kept[i]!) ^ 0x20, FNV_PRIME);
  const out = new Uint32Array(kept.length - 1);
  for (let i = 0; i + 1 < kept.length; i++) out[i] = fnvState(afterSpace[i]!, kept[i + 1]!) >>> 0;
  out.sort();
  let w = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i]!;
  return out.slice(0, w);
}

/**
 * shingleHashes(tokens(text)) without a string per token. Tokens never hold ASCII white space, and NFKC and
 * lower-casing never reach across it (a space, tab or line break is a starter nothing composes with, and no
 * casing context passes it), so the text is read a white-space-separated segment at a time: an ASCII segment
 * (most of every note) in one pass over its characters that finds each token as TOKEN_ASCII would
 * (lower-cased on the fly) and hashes it with FNV-1a; any other segment by `tokens()`. Stop words are dropped
 * (an ASCII token by its hash, checked against the word itself), and the bigram hashes are continued from the
 * states, as shingleHashes does. test/shingles.test.ts proves the two equal. `visit`, when given, is handed each
 * token as `scanTokens` hands it on.
 */
export function textShingleHashes(
  text: string,
  visit?: (start: number, end: number, word: string | undefined, h: number) => void,
): Uint32Array {
  let k = 0;
  const keep = (start: number, end: number, word: string | undefined, h: number): void => {
    if (k === scratch.starts.length) growScratch();
    scratch.starts[k] = start;
    scratch.ends[k] = end;
    scratch.words[k] = word;
    scratch.states[k] = h;
    k++;
    // Another reader of the same tokens (note features' subject terms), in this one scan.
    if (visit) visit(start, end, word, h);
  };
  scanTokens(text, keep);
  if (k === 0) return new Uint32Array(0);
  if (k === 1) return Uint32Array.of(scratch.states[0]! >>> 0);
  const out = new Uint32Array(k - 1);
  for (let i = 0; i + 1 < k; i++) {
    const afterSpace = Math.imul(scratch.states[i]! ^ 0x20, FNV_PRIME);
    const word = scratch.words[i + 1];
    out[i] =
      (word === undefined
        ? fnvLower(afterSpace, text, scratch.starts[i + 1]!, scratch.ends[i + 1]!)
        : fnvState(afterSpace, word)) >>> 0;
  }
  scratch.words.fill(undefined, 0, k);
  out.sort();
  let w = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i]!;
  return out.slice(0, w);
}

/**
 * The tokens of `text` that are not stop words, in order, each handed to `keep` with its FNV-1a state (of the
 * lower-cased token): a token of an ASCII white-space-separated segment as its place, `keep(start, end, undefined,
 * h)` (the token is text[start, end) lower-cased: no string is made), one of any other segment as its text,
 * `keep(0, 0, word, h)` from `tokens()` of the segment. The same tokens as `tokens(text)` without its stop words
 * (the argument above; test/shingles.test.ts, test/rare-terms.test.ts).
 */
export function scanTokens(
  text: string,
  keep: (start: number, end: number, word: string | undefined, h: number) => void,
): void {
  const len = text.length;
  for (let p = 0; p < len;) {
    const c = text.charCodeAt(p);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) {
      p++;
      continue;
    }
    let e = p;
    let ascii = true;
    for (; e < len; e++) {
      const d = text.charCodeAt(e);
      if (d === 0x20 || d === 0x0a || d === 0x09 || d === 0x0d) break;
      if (d >= 0x80) ascii = false;
    }
    if (ascii) scanAscii(text, p, e, keep);
    else for (const t of tokens(text.slice(p, e))) if (!STOPWORDS.has(t)) keep(0, 0, t, fnvState(FNV_OFFSET, t));
    p = e;
  }
}

/** The tokens of the ASCII text[from, to) that are not stop words, handed to `keep` with their FNV state. */
function scanAscii(
  text: string,
  from: number,
  to: number,
  keep: (start: number, end: number, word: undefined, h: number) => void,
): void {
  for (let p = from; p < to;) {
    const c = lower(text.charCodeAt(p));
    if (!isAlnum(c)) {
      p++;
      continue;
    }
    let end = c <= 0x39 ? thousandsEnd(text, p, to) : -1;
    let h: number;
    if (end < 0) {
      // [a-z0-9][a-z0-9_.'-]*[a-z0-9] | [a-z0-9]: the longest run of word characters, back to its last letter or
      // digit; hashed as it is read (FNV-1a is sequential: the state at the last letter or digit is the token's).
      end = p + 1;
      let run = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
      h = run;
      for (let q = p + 1; q < to; q++) {
        const d = lower(text.charCodeAt(q));
        if (isAlnum(d)) {
          run = Math.imul(run ^ d, FNV_PRIME);
          end = q + 1;
          h = run;
        } else if (d === 0x5f || d === 0x2e || d === 0x27 || d === 0x2d) run = Math.imul(run ^ d, FNV_PRIME);
        else break;
      }
    } else h = fnvLower(FNV_OFFSET, text, p, end);
    if (end - p > MAX_STOPWORD || !isStopword(h, text, p, end)) keep(p, end, undefined, h);
    p = end;
  }
}

const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isAlnum = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x7a);

/** Where `\d{1,3}(?:,\d{3})+(?:\.\d+)?` matching at p ends (within text[p, to)), or -1. */
function thousandsEnd(text: string, p: number, to: number): number {
  const digit = (i: number): boolean => i < to && isDigit(text.charCodeAt(i));
  let q = p;
  while (q - p < 4 && digit(q)) q++;
  if (q - p > 3) return -1; // four digits: no choice of one to three is followed by a comma
  let groups = 0;
  while (q < to && text.charCodeAt(q) === 0x2c && digit(q + 1) && digit(q + 2) && digit(q + 3)) {
    q += 4;
    groups++;
  }
  if (groups === 0) return -1;
  if (q < to && text.charCodeAt(q) === 0x2e && digit(q + 1)) {
    q += 2;
    while (digit(q)) q++;
  }
  return q;
}

/** FNV-1a state after the lower-cased code units text[from, to), from state h (fnvState of the token). */
function fnvLower(h: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    h ^= lower(text.charCodeAt(i));
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/**
 * Stop words by their FNV state, in an open-addressing table (a Map keyed by the state boxed every state past the
 * small-integer range); a hit is confirmed against the word itself. A token longer than every stop word is none.
 */
const STOP_SLOTS = 1024;
const stopStates = new Int32Array(STOP_SLOTS);
const stopWords: (string | undefined)[] = new Array<string | undefined>(STOP_SLOTS).fill(undefined);
const MAX_STOPWORD = Math.max(...Array.from(STOPWORDS, (w) => w.length));
for (const w of STOPWORDS) {
  const h = fnvState(FNV_OFFSET, w);
  let s = h & (STOP_SLOTS - 1);
  while (stopWords[s] !== undefined) s = (s + 1) & (STOP_SLOTS - 1);
  stopStates[s] = h;
  stopWords[s] = w;
}
function isStopword(h: number, text: string, from: number, to: number): boolean {
  for (let s = h & (STOP_SLOTS - 1); ; s = (s + 1) & (STOP_SLOTS - 1)) {
    const w = stopWords[s];
    if (w === undefined) return false;
    if (stopStates[s] !== h || w.length !== to - from) continue;
    let i = 0;
    while (i < w.length && w.charCodeAt(i) === lower(text.charCodeAt(from + i))) i++;
    if (i === w.length) return true;
  }
}

/** Token bounds and states of the text being hashed, reused across calls. */
const scratch: { starts: Int32Array; ends: Int32Array; states: Int32Array; words: (string | undefined)[] } = {
  starts: new Int32Array(1024),
  ends: new Int32Array(1024),
  states: new Int32Array(1024),
  words: [],
};
function growScratch(): void {
  const grow = (a: Int32Array): Int32Array => {
    const b = new Int32Array(a.length * 2);
    b.set(a);
    return b;
  };
  scratch.starts = grow(scratch.starts);
  scratch.ends = grow(scratch.ends);
  scratch.states = grow(scratch.states);
}

export interface Sentence {
  readonly text: string;
  /** Offset in the note's file text. */
  readonly offset: number;
  readonly line: number;
}

/** White space other than one space between words: the text `.replace(/\s+/g, ' ')` would change. */
const SPACE_RUN = /\s\s|[^\S ]/;
/**
 * A sentence's text as `sentences()` keeps it: the **Why:** / **How to apply:** labels and a leading list or quote
 * marker dropped, white space runs made one space, trimmed. The label and white-space rewrites run only on text that
 * holds `**` or such white space (most sentences hold neither: the rewrite would give the text back).
 */
export function cleanSentence(raw: string): string {
  const unlabelled = raw.includes('**') ? raw.replace(/\*\*(Why|How to apply):?\*\*:?/gi, '') : raw;
  const unmarked = unlabelled.replace(/^(?:[\s\-*+>#]|\d{1,3}[.)](?=\s))+/, '');
  return (SPACE_RUN.test(unmarked) ? unmarked.replace(/\s+/g, ' ') : unmarked).trim();
}

/**
 * Sentences of the body's prose. Code blocks are left out; a sentence may wrap across lines within
 * a paragraph; each list item, heading and paragraph starts afresh; table rows are skipped.
 */
export function sentences(note: Pick<VaultFile, 'text' | 'bodyOffset' | 'codeRanges' | 'position'>): Sentence[] {
  const out: Sentence[] = [];
  // Code blocks blanked (newlines kept) in one pass: rebuilding the whole text per block was
  // quadratic in a long note's size (guard reads the 20 most similar notes; issue 14).
  const parts: string[] = [];
  let from = 0;
  const code = note.codeRanges
    .filter(([s, e]) => s >= note.bodyOffset && note.text.slice(s, e).includes('\n'))
    .sort((a, b) => a[0] - b[0]);
  for (const [s, e] of code) {
    const start = Math.max(s, from);
    if (e <= start) continue;
    parts.push(note.text.slice(from, start), note.text.slice(start, e).replace(/[^\n]/g, ' '));
    from = e;
  }
  const text = parts.length ? parts.join('') + note.text.slice(from) : note.text;
  const blocks: [number, number][] = [];
  let blockStart = -1;
  let pos = note.bodyOffset;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    const blank = line.trim() === '';
    const starts = /^\s*(?:[-*+]\s|\d{1,3}[.)]\s|#{1,6}\s|>)/.test(line);
    const table = /^\s*\|/.test(line);
    if (blank || starts || table) {
      if (blockStart !== -1) blocks.push([blockStart, pos - 1]);
      blockStart = blank || table ? -1 : pos;
    } else if (blockStart === -1) {
      blockStart = pos;
    }
    if (nl === -1) {
      if (blockStart !== -1) blocks.push([blockStart, end]);
      break;
    }
    pos = nl + 1;
  }
  const re = /(?:[^.!?。！？]|[.!?](?=\S))+(?:[.!?]+(?=\s|$)|[。！？]+|$)/g;
  for (const [s, e] of blocks) {
    const block = text.slice(s, e).replace(/\r?\n/g, ' ');
    for (let m = re.exec(block); m; m = re.exec(block)) {
      const raw = m[0];
      const cleaned = cleanSentence(raw);
      if (cleaned.length < 8) continue;
      const offset = s + m.index + Math.max(0, raw.search(/\S/));
      out.push({ text: cleaned, offset, line: note.position(offset).line });
    }
  }
  return out;
}

/**
 * Size of the intersection of two sorted, distinct arrays: a merge, or when one side is more than
 * 16 times the other (a draft against a long note: 300 shingles against 20,000) a galloping search
 * of each item of the smaller side in the larger, O(small × log large), the same count.
 */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  if (a.length * 16 < b.length) return gallopingIntersection(a, b);
  if (b.length * 16 < a.length) return gallopingIntersection(b, a);
  let i = 0,
    j = 0,
    n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return n;
}

/**
 * One sorted, distinct set prepared for intersections with many others (guard: a draft against thousands of
 * candidates): a 65,536-bit map of its hashes' low 16 bits rules most of another set's hashes out with one load and
 * no branch a merge would mispredict, and the few that pass are confirmed by a binary search. Against a set more
 * than 16 times larger, the galloping search of `intersectionSize`. The same count as `intersectionSize(set, other)`.
 */
export function intersectionWith(set: Uint32Array): (other: Uint32Array) => number {
  const bits = new Int32Array(2048);
  for (let k = 0; k < set.length; k++) {
    const h = set[k]!;
    bits[(h & 0xffff) >>> 5]! |= 1 << (h & 31);
  }
  const last = set.length - 1;
  return (other) => {
    if (set.length * 16 < other.length) return gallopingIntersection(set, other);
    if (other.length * 16 < set.length) return gallopingIntersection(other, set);
    let n = 0;
    for (let k = 0; k < other.length; k++) {
      const h = other[k]!;
      if ((bits[(h & 0xffff) >>> 5]! & (1 << (h & 31))) === 0) continue;
      let lo = 0,
        hi = last;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const v = set[mid]!;
        if (v < h) lo = mid + 1;
        else if (v > h) hi = mid - 1;
        else {
          n++;
          break;
        }
      }
    }
    return n;
  };
}

/** Each item of `small` looked up in `large` from where the last one was found: doubling steps, then a binary search. */
function gallopingIntersection(small: Uint32Array, large: Uint32Array): number {
  const len = large.length;
  let n = 0,
    lo = 0;
  for (let i = 0; i < small.length && lo < len; i++) {
    const x = small[i]!;
    // Every large[k] < x for k < lo; find the first index at or after lo holding x or more.
    let hi = lo,
      step = 1;
    while (hi < len && large[hi]! < x) {
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
    if (hi > len) hi = len;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (large[m]! < x) lo = m + 1;
      else hi = m;
    }
    if (lo < len && large[lo] === x) {
      n++;
      lo++;
    }
  }
  return n;
}

/** `inter`: the intersection's size when the caller has it already (similarity() asks both measures). */
export function jaccard(a: Uint32Array, b: Uint32Array, inter?: number): number {
  if (a.length === 0 && b.length === 0) return 1;
  const shared = inter ?? intersectionSize(a, b);
  return shared / (a.length + b.length - shared);
}

/** How much of the smaller set lies inside the larger one. */
export function containment(a: Uint32Array, b: Uint32Array, inter?: number): number {
  const small = Math.min(a.length, b.length);
  return small === 0 ? 0 : (inter ?? intersectionSize(a, b)) / small;
}
