// Per-note claims read each clause once (issue 14): the words before a thing are read back from it, not split
// out of the whole clause again for every word. Same answers as the split, on random text with every kind of space.
import { describe, expect, it } from 'vitest';
import {
  claimSentences,
  findFrame,
  frameKey,
  lastWords,
  noteClaims,
  refuses,
  scoped,
  type FrameSet,
} from '../src/similarity/claims.js';
import { isCjk, STOPWORDS } from '../src/similarity/text.js';

const PIECES = ['a', 'bc', 'never', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\u2028', 'é', '日本', '`x`', ',', '🙂'];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

describe('lastWords', () => {
  it('equals text.slice(0, end).split(/\\s+/).slice(-n).join(" ")', () => {
    const r = seeded(7);
    for (let k = 0; k < 3000; k++) {
      const parts: string[] = [];
      for (let i = Math.floor(r() * 30); i > 0; i--) parts.push(PIECES[Math.floor(r() * PIECES.length)]!);
      const text = parts.join('');
      const end = Math.floor(r() * (text.length + 1));
      const n = 1 + Math.floor(r() * 7);
      expect(lastWords(text, end, n), JSON.stringify([text, end, n])).toBe(
        text.slice(0, end).split(/\s+/).slice(-n).join(' '),
      );
    }
  });
});

/** The frames as a Map keyed by their text, the way they were built before FrameSet (the reference). */
function referenceFrames(texts: readonly string[]): Map<string, { filler: string; at: number }> {
  const frames = new Map<string, { filler: string; at: number }>();
  claimSentences(texts).forEach((s, at) => {
    for (const c of s.clauses) {
      const text = c.text.replace(/`([^`\n]{1,120})`/g, ' ');
      if (scoped(text) || refuses(text) || c.text.includes('/')) continue;
      const toks = c.tokens;
      if (toks.length < 4 || toks.length > 14 || toks.some(isCjk)) continue;
      if (toks.filter((t) => !STOPWORDS.has(t) && !/^\d/.test(t)).length < 4) continue;
      for (let k = 0; k < toks.length; k++) {
        const f = toks[k]!;
        if (STOPWORDS.has(f) || /[\d._]/.test(f) || f.length < 3) continue;
        frames.set(`${toks.slice(0, k).join(' ')} _ ${toks.slice(k + 1).join(' ')}`, { filler: f, at });
        if (k <= 2 && toks.length >= k + 5) {
          const right = toks.slice(k + 1, k + 5);
          if (right.filter((t) => !STOPWORDS.has(t)).length >= 3)
            frames.set(`${toks.slice(0, k).join(' ')} _ ${right.join(' ')} …`, { filler: f, at });
        }
      }
    }
  });
  return frames;
}

const VOCAB =
  'use vitest jest for all unit tests the deploy script runs pnpm never push main branch always review code'.split(' ');

describe('frames (FrameSet)', () => {
  it('are the frames the text-keyed Map held, in its order, with its fillers, and are found where it found them', () => {
    const r = seeded(11);
    // Sentences from a small pool, some with one word changed: notes share frames and disagree on fillers.
    const pool = Array.from({ length: 12 }, () =>
      Array.from({ length: 4 + Math.floor(r() * 9) }, () => VOCAB[Math.floor(r() * VOCAB.length)]!),
    );
    const note = (): string[] =>
      Array.from({ length: 1 + Math.floor(r() * 6) }, () => {
        const words = [...pool[Math.floor(r() * pool.length)]!];
        if (r() < 0.6) words[Math.floor(r() * words.length)] = VOCAB[Math.floor(r() * VOCAB.length)]!;
        return words.join(' ');
      });
    let shared = 0;
    for (let k = 0; k < 300; k++) {
      const [ta, tb] = [note(), note()];
      const [a, b] = [noteClaims(claimSentences(ta)).frames, noteClaims(claimSentences(tb)).frames];
      const [ra, rb] = [referenceFrames(ta), referenceFrames(tb)];
      const entries = (x: FrameSet): [string, string, number][] =>
        Array.from(x.hash, (_, f) => [frameKey(x, f), x.clauses[x.clause[f]!]![x.pos[f]!]!, x.at[x.clause[f]!]!]);
      expect(entries(a)).toEqual([...ra].map(([key, v]) => [key, v.filler, v.at]));
      for (let f = 0; f < a.hash.length; f++) {
        const g = findFrame(b, a, f);
        const key = frameKey(a, f);
        expect(g >= 0 ? frameKey(b, g) : null).toBe(rb.has(key) ? key : null);
        if (g >= 0) shared++;
      }
    }
    // The random notes share frames often enough for the look-ups to be tested both ways.
    expect(shared).toBeGreaterThan(100);
  });
});
