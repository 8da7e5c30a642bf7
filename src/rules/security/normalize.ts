/**
 * Security rules look for hidden characters in the raw text, but match phrases on a normalized
 * view: NFKC (fullwidth and other look-alikes folded), cross-script homoglyphs mapped to their
 * Latin skeleton (Unicode confusables), invisible characters dropped, lower case.
 * Every normalized offset maps back to the raw offset so findings keep their real line and column.
 */

import { CONFUSABLE_FROM, CONFUSABLE_TO } from './confusables.js';

/**
 * Characters dropped from the matching view: zero-width and format characters, bidi marks and
 * controls, Unicode tags, the soft hyphen, Mongolian vowel separator, Hangul fillers, the combining
 * grapheme joiner and variation selectors. Invisible, yet read by models.
 */
export const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2060-\u2064\u206A-\u206F\uFEFF\u202A-\u202E\u2066-\u2069\u3164\uFFA0\uFE00-\uFE0F\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
const INVISIBLE_G = new RegExp(INVISIBLE.source, 'u');

/** Cross-script look-alikes (Cyrillic а, Greek ο, …) to the Latin letter of their confusable skeleton. */
const CONFUSABLE = new Map<string, string>([...CONFUSABLE_FROM].map((c, i) => [c, CONFUSABLE_TO[i]!]));
const CONFUSABLE_ANY = new RegExp(`[${CONFUSABLE_FROM}]`);

function fold(ch: string): string {
  const f = ch.normalize('NFKC').toLowerCase();
  return f.length === 1 ? (CONFUSABLE.get(f) ?? CONFUSABLE.get(ch) ?? f) : f;
}

export interface NormalizedText {
  readonly text: string;
  /** Raw offset of each normalized UTF-16 unit; null when they are the same (plain ASCII). */
  readonly map: readonly number[] | null;
}

const NON_ASCII = /[^\u0000-\u007f]/;

const cache = new WeakMap<object, NormalizedText>();
/** Whether a view is memoized on `key` (tests: consolidate's not-memory stage must not keep every file's view). */
export const viewKept = (key: object): boolean => cache.has(key);

/** Runs of non-ASCII units whose fold is themselves (see `stableRun`), and those whose is not. */
const runIsStable = new Map<string, boolean>();
/** Distinct runs remembered at most (a vault in many scripts would otherwise grow the map without end). */
const RUNS_REMEMBERED = 1 << 16;
const NON_ASCII_RUN = /[^\u0000-\u007f]+/g;

/**
 * A non-ASCII run that `normalizeByRuns` keeps as it is: NFKC and lower case leave it unchanged and
 * it holds no invisible or confusable character (most real text: dashes, quotes, accented lower-case
 * letters, CJK).
 */
function stableRun(seg: string): boolean {
  let stable = runIsStable.get(seg);
  if (stable === undefined) {
    stable = seg.normalize('NFKC').toLowerCase() === seg && !INVISIBLE_G.test(seg) && !CONFUSABLE_ANY.test(seg);
    if (runIsStable.size < RUNS_REMEMBERED) runIsStable.set(seg, stable);
  }
  return stable;
}

/**
 * Whether every non-ASCII run of `raw` is stable. Then `normalizeByRuns` gives `raw.toLowerCase()`
 * with no map: its ASCII runs are lower-cased, its other runs kept; and lower-casing the whole text
 * maps each of those units to itself too, since the only mapping that depends on the neighbours
 * (Greek capital sigma, final or not) changes the unit whatever they are, so no stable run holds it.
 */
function allRunsStable(raw: string): boolean {
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(raw); m; m = NON_ASCII_RUN.exec(raw)) if (!stableRun(m[0])) return false;
  return true;
}

export function normalizeForMatching(raw: string, key?: object): NormalizedText {
  if (key) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  // Plain ASCII (NFKC changes nothing and no invisible character can be there), or only stable runs.
  const out =
    !NON_ASCII.test(raw) || allRunsStable(raw) ? { text: raw.toLowerCase(), map: null } : normalizeByRuns(raw);
  if (key) cache.set(key, out);
  return out;
}

/** The normalized view built run by run (ASCII runs, non-ASCII runs): the definition `normalizeForMatching` answers by. */
export function normalizeByRuns(raw: string): NormalizedText {
  // Chunks joined once at the end. The map stays null while every run keeps its length (then the
  // normalized unit k is raw unit k): it is built only from the first run that changes length or
  // drops or maps a character, with the identity filled in for the text before it.
  const chunks: string[] = [];
  let length = 0;
  let map: number[] | null = null;
  // ASCII runs in bulk; a non-ASCII run is normalized whole unless NFKC or lower-casing changes
  // its length or it holds an invisible character, then character by character.
  const RUN = /[\u0000-\u007f]+|[^\u0000-\u007f]+/g;
  for (let m = RUN.exec(raw); m; m = RUN.exec(raw)) {
    const seg = m[0];
    if (seg.charCodeAt(0) < 0x80) {
      chunks.push(seg.toLowerCase());
      if (map) for (let k = 0; k < seg.length; k++) map.push(m.index + k);
      length += seg.length;
      continue;
    }
    const folded = seg.normalize('NFKC').toLowerCase();
    if (
      folded.length === seg.length &&
      !INVISIBLE_G.test(seg) &&
      !CONFUSABLE_ANY.test(folded) &&
      !CONFUSABLE_ANY.test(seg)
    ) {
      chunks.push(folded);
      if (map) for (let k = 0; k < seg.length; k++) map.push(m.index + k);
      length += seg.length;
      continue;
    }
    if (!map) {
      map = new Array<number>(length);
      for (let k = 0; k < length; k++) map[k] = k;
    }
    let i = m.index;
    for (const ch of seg) {
      if (!INVISIBLE.test(ch)) {
        const f = fold(ch);
        for (let k = 0; k < f.length; k++) map.push(i);
        chunks.push(f);
        length += f.length;
      }
      i += ch.length;
    }
  }
  return { text: chunks.join(''), map };
}

export function rawOffset(n: NormalizedText, at: number): number {
  if (n.map === null) return at;
  return n.map[Math.min(at, n.map.length - 1)] ?? 0;
}

/** Shows a secret without revealing it: its first four characters and its length. */
export function mask(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`;
}
