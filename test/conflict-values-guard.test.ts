// viewClause skips reading values in a text that can hold no NUMBER token (ASCII without a digit). A text with a
// non-ASCII character is always read: NFKC turns fullwidth, superscript and circled digits into ASCII ones.
import { describe, expect, it } from 'vitest';
import { sentenceConflict, viewSentence } from '../src/similarity/conflict.js';

describe('viewSentence values', () => {
  it('are read from digits NFKC makes, and a changed one is a conflict', () => {
    for (const [a, b] of [
      ['the api server port is ８０８０', 'the api server port is 3000'],
      ['the api server port is ³⁰⁰⁰', 'the api server port is 8080'],
      ['the api server retries ① time', 'the api server retries 3 time'],
    ] as const) {
      const va = viewSentence(a);
      expect(va.values.size, a).toBeGreaterThan(0);
      expect(sentenceConflict(va, viewSentence(b))?.kind, a).toBe('value');
    }
  });

  it('are none in an ASCII text without a digit, and tokens stay as they were', () => {
    const v = viewSentence('the api server port is high, never low');
    expect(v.values.size).toBe(0);
    expect(v.numbers.size).toBe(0);
    expect(v.content.has('port')).toBe(true);
  });
});
