/**
 * Lexical evidence for the conflict engine, from general resources rather than from test pairs:
 * WordNet's antonym pairs (distilled at build time into antonyms.generated.ts), negative prefixes
 * (un-, in-, dis-, non-…: "reliable"/"unreliable", "enable"/"disable"), a light stemmer that folds
 * inflections before lookup, and edit distance for typo-level differences.
 */
import { ANTONYM_PAIRS } from './antonyms.generated.js';

let antonyms: Set<string> | null = null;

/** Inflections folded: "enabled", "enables", "enabling" → "enabl"; used only to compare two words. */
export function stem(w: string): string {
  if (w.length <= 4 || !/^[a-z-]+$/.test(w)) return w;
  return w.replace(/(?:ing|ed|es|s|e)$/, '');
}

/** Candidate lemmas of an inflected English word ("disabled" → disabled, disable, disabl). */
function lemmas(w: string): string[] {
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ing')) out.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
  return out;
}

const NEG_PREFIX = /^(?:un|in|im|il|ir|dis|non-?|de)(?=[a-z]{5,}$)/;

export function areAntonyms(a: string, b: string): boolean {
  if (a === b || !/^[a-z-]{3,}$/.test(a) || !/^[a-z-]{3,}$/.test(b)) return false;
  antonyms ??= new Set(ANTONYM_PAIRS.split(','));
  for (const x of lemmas(a))
    for (const y of lemmas(b)) if (antonyms.has(x < y ? `${x} ${y}` : `${y} ${x}`)) return true;
  // A negative prefix on one side only, the same stem after it: "reliable"/"unreliable", "enable"/"disable".
  const ra = a.replace(NEG_PREFIX, ''),
    rb = b.replace(NEG_PREFIX, '');
  if ((ra !== a) !== (rb !== b) && stem(ra) === stem(rb)) return true;
  const ea = a.replace(/^en(?=[a-z]{3,}$)/, ''),
    eb = b.replace(/^dis(?=[a-z]{3,}$)/, '');
  const fa = a.replace(/^dis(?=[a-z]{3,}$)/, ''),
    fb = b.replace(/^en(?=[a-z]{3,}$)/, '');
  return (ea !== a && eb !== b && stem(ea) === stem(eb)) || (fa !== a && fb !== b && stem(fa) === stem(fb));
}

/** Levenshtein distance, stopping early once above `max`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (cur[j]! < best) best = cur[j]!;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The same number written differently: 3.86 / 3.86.0 / v3.86, 8,686 / 8686. */
export function normalizeNumber(t: string): string {
  return t
    .replace(/^v/, '')
    .replace(/,(?=\d{3})/g, '')
    .replace(/(?:\.0+)+$/, '');
}

/** A typo-level difference between two words: edit distance 1–2 on a non-number word, or one number formatted two ways. */
export function typoLevel(a: string, b: string): boolean {
  if (/\d/.test(a) || /\d/.test(b)) return normalizeNumber(a) === normalizeNumber(b);
  if (stem(a) === stem(b)) return true;
  return Math.min(a.length, b.length) >= 4 && editDistance(a, b, 2) <= 2;
}
