// The contradictions stage holds compact views (src/similarity/conflict.ts `compactNoteClauses`): claims whose frames
// keep their clauses' texts (tokens read again on demand) and no sentence objects (read again when quoted). Every pair
// must conflict exactly as with the full views, quoting the same sentences.
import { describe, expect, it } from 'vitest';
import { pairSharedFrames } from '../src/similarity/claims.js';
import { claimsOf, compactNoteClauses, noteClauses, noteConflicts } from '../src/similarity/conflict.js';
import { seeded } from './helpers/seeded.js';

const WORDS =
  'use vitest jest for all unit tests the deploy script runs pnpm npm never push to main branch always review code port timeout is set'.split(
    ' ',
  );
const EXTRA = ['`pnpm install`', '`PORT=3000`', '`PORT=8080`', 'TIMEOUT_MS', "don't", '30 s', '45 s', 'src/app.ts'];

function note(text: string): Parameters<typeof noteClauses>[0] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return {
    text,
    bodyOffset: 0,
    codeRanges: [],
    position: (offset: number) => {
      let line = 0;
      while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
      return { line: line + 1, column: offset - starts[line]! + 1 };
    },
  };
}

describe('compact views (the contradictions stage)', () => {
  it('conflict exactly as the full views, quoting the same sentences; their frames read the same clauses', () => {
    const r = seeded(19);
    const pool = Array.from({ length: 30 }, () => {
      const words = Array.from({ length: 5 + Math.floor(r() * 8) }, () => WORDS[Math.floor(r() * WORDS.length)]!);
      if (r() < 0.4) words[Math.floor(r() * words.length)] = EXTRA[Math.floor(r() * EXTRA.length)]!;
      return words;
    });
    const texts = Array.from({ length: 40 }, () =>
      Array.from({ length: 2 + Math.floor(r() * 6) }, () => {
        const words = [...pool[Math.floor(r() * pool.length)]!];
        if (r() < 0.5) words[Math.floor(r() * words.length)] = WORDS[Math.floor(r() * WORDS.length)]!;
        return `${words.join(' ')}.`;
      }).join(r() < 0.5 ? '\n\n' : ' '),
    );
    const full = texts.map((t) => noteClauses(note(t)));
    const compact = texts.map((t) => compactNoteClauses(note(t)));
    let conflicts = 0;
    for (let i = 0; i < texts.length; i++) {
      expect(compact[i]!.sentences).toEqual(full[i]!.sentences);
      for (let j = 0; j < texts.length; j++) {
        if (i === j) continue;
        const want = noteConflicts(full[i]!, full[j]!, 3);
        expect(noteConflicts(compact[i]!, compact[j]!, 3, undefined, pairSharedFrames)).toEqual(want);
        conflicts += want.length;
      }
    }
    // Frame conflicts ("jest vs vitest in …") among them: the compact frames' clauses were read.
    expect(conflicts).toBeGreaterThan(20);
    expect(
      full.some((a, i) =>
        full.some((b, j) => i !== j && / vs .* in "/.test(noteConflicts(a, b, 3)[0]?.conflict.detail ?? '')),
      ),
    ).toBe(true);
    for (let i = 0; i < texts.length; i++)
      expect(Array.from(compact[i]!.claims!.frames.clauses)).toEqual(claimsOf(full[i]!).frames.clauses);
  });
});
