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
  framesSharedWith,
  pairSharedFrames,
  claimConflict,
  type FrameSet,
  type SharedFrames,
} from '../src/similarity/claims.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { isCjk, STOPWORDS } from '../src/similarity/text.js';
import { seeded } from './helpers/seeded.js';

const PIECES = ['a', 'bc', 'never', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\u2028', 'é', '日本', '`x`', ',', '🙂'];

/** The frames built for `texts`, each with its filler and place, are the reference's, in its order. */
function expectReferenceFrames(x: ReturnType<typeof noteClaims>['frames'], texts: string[]): void {
  const entries = Array.from(x.hash, (_, f) => [
    frameKey(x, f),
    x.clauses[x.clause[f]!]![x.pos[f]!]!,
    x.at[x.clause[f]!]!,
  ]);
  expect(entries).toEqual([...referenceFrames(texts)].map(([key, v]) => [key, v.filler, v.at]));
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
  it('are the reference frames in notes of hundreds of frames, and byHash orders them by hash, then number', () => {
    const r = seeded(23);
    const words = [...VOCAB, ...Array.from({ length: 60 }, (_, i) => `term${i.toString(36)}x`)];
    for (let k = 0; k < 40; k++) {
      const texts = Array.from({ length: 10 + Math.floor(r() * 60) }, () =>
        Array.from({ length: 4 + Math.floor(r() * 11) }, () => words[Math.floor(r() * words.length)]!).join(' '),
      );
      // Some sentences again, some with one word changed: the same frame met again takes the later filler.
      for (let i = Math.floor(r() * 20); i > 0; i--) {
        const again = texts[Math.floor(r() * texts.length)]!.split(' ');
        if (r() < 0.5) again[Math.floor(r() * again.length)] = words[Math.floor(r() * words.length)]!;
        texts.push(again.join(' '));
      }
      const x = noteClaims(claimSentences(texts)).frames;
      expectReferenceFrames(x, texts);
      const order = Array.from(x.hash.keys()).sort((p, q) => x.hash[p]! - x.hash[q]! || p - q);
      expect([...x.byHash]).toEqual(order);
      if (k === 0) expect(x.hash.length).toBeGreaterThan(100);
    }
  });

  it('are the reference frames with digits, dots, underscores, short words, and CJK in the clauses', () => {
    const r = seeded(29);
    // Every test of the frame builder meets both answers: a filler that is short, holds a digit, `.` or `_`, a
    // content word opening with a digit, a clause holding a CJK or Hangul character (no frame at all).
    const ODD = [
      'ab',
      'x9',
      '3d',
      'v1.2',
      'foo_bar',
      'a.b',
      '9lives',
      'on',
      'go',
      '日本',
      '한국',
      'ᄀa',
      'éclair',
      'Ünïcode',
    ];
    const words = [...VOCAB, ...ODD, ...Array.from({ length: 20 }, (_, i) => `term${i.toString(36)}x`)];
    let frames = 0;
    for (let k = 0; k < 200; k++) {
      const texts = Array.from({ length: 5 + Math.floor(r() * 30) }, () =>
        Array.from({ length: 3 + Math.floor(r() * 13) }, () => words[Math.floor(r() * words.length)]!).join(' '),
      );
      const x = noteClaims(claimSentences(texts)).frames;
      expectReferenceFrames(x, texts);
      frames += x.hash.length;
    }
    expect(frames).toBeGreaterThan(1000);
  });

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

  it('compared through pairSharedFrames, pairs conflict exactly as without it, with fewer look-ups', () => {
    const r = seeded(5);
    const pool = Array.from({ length: 40 }, () =>
      Array.from({ length: 4 + Math.floor(r() * 9) }, () => VOCAB[Math.floor(r() * VOCAB.length)]!),
    );
    // Half the notes draw from the first few sentences only: frames shared by some notes, not by all.
    const notes = Array.from({ length: 60 }, (_, i) =>
      noteClaims(
        claimSentences(
          Array.from({ length: 2 + Math.floor(r() * 8) }, () => {
            const words = [...pool[Math.floor(r() * (i % 2 ? 6 : pool.length))]!];
            if (r() < 0.5) words[Math.floor(r() * words.length)] = VOCAB[Math.floor(r() * VOCAB.length)]!;
            return words.join(' ');
          }),
        ),
      ),
    );
    const lookups = (f: () => void): number => {
      startCounting();
      f();
      return stopCounting()['claims.frameLookups'] ?? 0;
    };
    const each = (shared?: SharedFrames): unknown[] => {
      const out: unknown[] = [];
      for (let i = 0; i < notes.length; i++)
        for (let j = i + 1; j < notes.length; j++) {
          out.push(claimConflict(notes[i]!, notes[j]!, shared));
          // The other order too (notes with equal frame counts included).
          out.push(claimConflict(notes[j]!, notes[i]!, shared));
        }
      return out;
    };
    let without: unknown[] = [],
      through: unknown[] = [];
    const all = lookups(() => (without = each()));
    const some = lookups(() => (through = each(pairSharedFrames)));
    expect(through).toEqual(without);
    expect(some).toBeLessThan(all);
    // The frames to look up: every frame of the one note whose hash the other has, ascending, and few others (the
    // filter's false positives).
    const made = (hash: number[]): FrameSet => ({
      clauses: [],
      at: new Int32Array(0),
      hash: Float64Array.from(hash),
      clause: new Int32Array(hash.length),
      pos: new Uint8Array(hash.length),
      local: new Uint8Array(hash.length),
      byHash: Int32Array.from(hash.map((_, f) => f).sort((f, g) => hash[f]! - hash[g]! || f - g)),
    });
    let tested = 0,
      found = 0,
      extra = 0;
    const expectShared = (x: FrameSet, y: FrameSet): void => {
      const hashes = new Set(y.hash);
      const got = Array.from(framesSharedWith(x, y));
      expect(got).toEqual([...got].sort((p, q) => p - q));
      expect(new Set(got).size).toBe(got.length);
      const expected = Array.from(x.hash, (h, f) => (hashes.has(h) ? f : -1)).filter((f) => f >= 0);
      expect(got.filter((f) => hashes.has(x.hash[f]!))).toEqual(expected);
      tested += x.hash.length;
      found += expected.length;
      extra += got.length - expected.length;
    };
    for (const x of notes) for (const y of notes) expectShared(x.frames, y.frames);
    expect(found).toBeGreaterThan(1000);
    // Two frames of one note with one hash (two frames whose 52-bit hashes collide): both are looked up.
    expectShared(made([5, 3, 5, 9, 1]), made([7, 5, 1]));
    expect(Array.from(framesSharedWith(made([5, 3, 5, 9, 1]), made([7, 5, 1])))).toEqual(
      expect.arrayContaining([0, 2, 4]),
    );
    // Hashes as frames have them (52 bits): a thousand against ten thousand, fifty of them shared.
    const r52 = (): number => Math.floor(r() * 2 ** 20) * 2 ** 32 + Math.floor(r() * 2 ** 32);
    const big = Array.from({ length: 1000 }, r52);
    const many = Array.from({ length: 10_000 }, (_, k) => (k % 200 === 7 ? big[k % 1000]! : r52()));
    expectShared(made(many), made(big));
    expectShared(made(big), made(many));
    expect(found).toBeGreaterThan(1100);
    // Few frames looked up in vain: ~0.4% of those tested.
    expect(extra).toBeLessThan(tested * 0.01);
    expect(without.filter((c) => c !== null).length).toBeGreaterThan(5);
    // Frame conflicts among them ("jest vs vitest in …"): the look-ups pairSharedFrames narrows.
    expect(without.some((c) => / vs .* in "/.test((c as { detail?: string } | null)?.detail ?? ''))).toBe(true);
  });
});
