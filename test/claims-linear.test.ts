// Per-note claims read each clause once (issue 14): the words before a thing are read back from it, not split
// out of the whole clause again for every word. Same answers as the split, on random text with every kind of space.
import { describe, expect, it } from 'vitest';
import { lastWords } from '../src/similarity/claims.js';

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
