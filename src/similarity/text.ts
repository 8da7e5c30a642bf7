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
  const out =
    (NON_ASCII.test(text)
      ? text.normalize('NFKC').toLowerCase().match(TOKEN)
      : text.toLowerCase().match(TOKEN_ASCII)) ?? [];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    const last = t.charCodeAt(t.length - 1);
    if (last === 0x2e || last === 0x27 || last === 0x2d) out[i] = t.replace(/[.'-]+$/, ''); // . ' -
  }
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

export interface Sentence {
  readonly text: string;
  /** Offset in the note's file text. */
  readonly offset: number;
  readonly line: number;
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
      const cleaned = raw
        .replace(/\*\*(Why|How to apply):?\*\*:?/gi, '')
        .replace(/^(?:[\s\-*+>#]|\d{1,3}[.)](?=\s))+/, '')
        .replace(/\s+/g, ' ')
        .trim();
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
