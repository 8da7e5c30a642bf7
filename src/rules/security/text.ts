/**
 * Security rules look for hidden characters in the raw text, but match phrases on a normalized
 * view: NFKC (fullwidth and other look-alikes folded), invisible characters dropped, lower case.
 * Every normalized offset maps back to the raw offset so findings keep their real line and column.
 */

/** Zero-width and format characters, bidi controls and Unicode tags: invisible, yet read by models. */
export const INVISIBLE = /[\u200B-\u200D\u2060\u2062-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;

export interface NormalizedText {
  readonly text: string;
  /** raw offset of each normalized UTF-16 unit */
  readonly map: readonly number[];
}

const cache = new WeakMap<object, NormalizedText>();

export function normalizeForMatching(raw: string, key?: object): NormalizedText {
  if (key) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  let text = '';
  const map: number[] = [];
  let i = 0;
  for (const ch of raw) {
    if (!INVISIBLE.test(ch)) {
      const folded = (/[\u0000-\u007f]/.test(ch) ? ch : ch.normalize('NFKC')).toLowerCase();
      for (let k = 0; k < folded.length; k++) map.push(i);
      text += folded;
    }
    i += ch.length;
  }
  const out = { text, map };
  if (key) cache.set(key, out);
  return out;
}

export function rawOffset(n: NormalizedText, at: number): number {
  return n.map[Math.min(at, n.map.length - 1)] ?? 0;
}

/** Shows a secret without revealing it: its first four characters and its length. */
export function mask(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`;
}
