/**
 * Issue 14: the claims cache stores a long note's words, frames, sentence subjects and sentences as
 * columns, decoded only where the conflict engine reads them (src/guard/claims-lazy.ts). What it
 * gives back must be, for the engine, the claims it was made from: the same entries in the same
 * order, the same lookups, and the same first conflict against drafts the engine answers (numbers
 * changed, a rule negated, a word swapped), with the stored note on either side of the comparison.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';
import { claimConflict, type NoteClaims } from '../src/similarity/claims.js';
import { claimsOf, noteClauses, noteConflicts, type NoteClauses } from '../src/similarity/conflict.js';
import { loadClaims, storeClaims, type StoredClaims } from '../src/guard/claims-lazy.js';
import { decodeEntry, encodeEntry } from '../src/guard/claims-codec.js';
import { makeVaultFile, readMarkdownFile } from '../src/vault/file.js';
import { CLAIMS_DIR, COLUMNS_FROM } from '../src/guard/claims-cache.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { tempDir } from './helpers/run.js';

/** Through the serializer, as the cache file does. */
const roundTrip = (c: NoteClauses): NoteClauses => {
  const stored = storeClaims(
    c.sentences.map(({ s }) => s),
    claimsOf(c),
  );
  expect(stored).not.toBeNull();
  return loadClaims(decodeEntry(encodeEntry(stored)) as NonNullable<typeof stored>);
};

const viewOf = (path: string): NoteClauses =>
  noteClauses(makeVaultFile(readMarkdownFile(path, path, 'note', 1 << 24), []));
const textView = (text: string): NoteClauses =>
  noteClauses({ text, bodyOffset: 0, codeRanges: [], position: () => ({ line: 1, column: 1 }) });

/** Entries in order, for every Map and Set of the claims, and each sentence's subject in order. */
function plain(c: NoteClaims): unknown {
  return Object.fromEntries(
    Object.entries(c).map(([k, v]) => [
      k,
      v instanceof Map
        ? [...v].map(([key, x]) => [key, x instanceof Object && 'values' in x ? { ...x, values: [...x.values] } : x])
        : v instanceof Set
          ? [...v]
          : Array.isArray(v)
            ? (v as (readonly string[])[]).map((s) => [...s])
            : v, // frames: a FrameSet of typed arrays, compared as it is
    ]),
  );
}

/** Drafts the engine answers, made from a note's text. */
const drafts = (text: string): string[] => {
  // The note's most frequent word of eight letters or more, everywhere replaced (a frame's filler changed).
  const words = new Map<string, number>();
  for (const w of text.toLowerCase().match(/\b[a-z]{8,}\b/g) ?? []) words.set(w, (words.get(w) ?? 0) + 1);
  const top = [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'nothing';
  return [
    text.replace(/\d+/g, (d) => String(Number(d) * 7 + 3)),
    text.replace(/\b(always|never)\b/gi, (w) => (w.toLowerCase() === 'always' ? 'never' : 'always')),
    text.replace(new RegExp(`\\b${top}\\b`, 'gi'), 'zebrafish'),
    text.split('\n').slice(0, 12).join('\n'),
  ];
};

function notes(dir = tempDir()): string[] {
  generateHardVault(dir, 24);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.md') && p !== 'MEMORY.md')
    .sort()
    .slice(0, 24)
    .map((p) => join(dir, p));
}

describe('guard: claims stored as columns', () => {
  it('give back the same entries, in the same order, through get, has, size and iteration', () => {
    for (const p of notes().slice(0, 12)) {
      const original = viewOf(p);
      const lazy = roundTrip(viewOf(p));
      const c = claimsOf(original),
        l = claimsOf(lazy);
      // Lookups before anything is filled in.
      expect(l.words.size).toBe(c.words.size);
      expect(l.frames.at.length).toBe(c.frames.at.length);
      for (const [k, v] of [...c.words].slice(0, 50)) expect(l.words.get(k)).toEqual(v);
      expect(l.frames).toEqual(c.frames);
      expect(l.words.get('no such word here')).toBeUndefined();
      expect(l.subject.length).toBe(c.subject.length);
      if (c.subject.length > 3) expect([...l.subject[3]!]).toEqual([...c.subject[3]!]);
      expect(lazy.sentences.length).toBe(original.sentences.length);
      expect(lazy.sentences[lazy.sentences.length - 1]).toEqual(original.sentences[original.sentences.length - 1]);
      // Then everything, in order (iteration fills the Map; the values looked up before stay the same objects).
      const looked = l.words.get([...c.words.keys()][0]!);
      expect(plain(l)).toEqual(plain(c));
      expect(l.words.get([...c.words.keys()][0]!)).toBe(looked);
      expect([...lazy.sentences]).toEqual([...original.sentences]);
    }
  });

  it('the engine finds the same first conflict with a stored note as with the note, on either side', () => {
    let conflicts = 0;
    const kinds = new Set<string>();
    const paths = notes();
    for (const p of paths) {
      const text = readFileSync(p, 'utf8');
      const original = viewOf(p);
      const bytes = encodeEntry(
        storeClaims(
          original.sentences.map(({ s }) => s),
          claimsOf(original),
        ),
      );
      // A fresh copy each time: what one comparison fills in must not help the next.
      const lazy = (): NoteClauses => loadClaims(decodeEntry(bytes) as StoredClaims);
      for (const d of drafts(text)) {
        const draft = textView(d);
        const want = claimConflict(claimsOf(draft), claimsOf(original));
        expect(claimConflict(claimsOf(draft), claimsOf(lazy()))).toEqual(want);
        expect(claimConflict(claimsOf(lazy()), claimsOf(draft))).toEqual(
          claimConflict(claimsOf(original), claimsOf(draft)),
        );
        expect(noteConflicts(draft, lazy(), 1)).toEqual(noteConflicts(draft, original, 1));
        if (want) {
          conflicts++;
          kinds.add(want.kind);
        }
      }
    }
    expect(conflicts).toBeGreaterThan(20); // the drafts do reach the engine's answers
    expect([...kinds].sort()).toEqual(['polarity', 'value']);
  });

  it('a stem holding the separator is stored as it is (no stored form)', () => {
    const v = textView('The build uses vite for every package.');
    const c = claimsOf(v);
    const odd = { ...c, subject: [['a\0b']] };
    expect(
      storeClaims(
        v.sentences.map(({ s }) => s),
        odd,
      ),
    ).toBeNull();
  });

  it('guard stores long notes as columns and short ones whole, and answers as without the cache', async () => {
    const dir = tempDir();
    const paths = notes(dir);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const now = new Date('2026-12-01T00:00:00Z');
    const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
      const { cache: _cache, ...rest } = r;
      return rest;
    };
    let conflicts = 0;
    // Another name: a draft with the note's own name is an update of it, not compared.
    for (const p of paths.slice(0, 4))
      for (const d0 of drafts(readFileSync(p, 'utf8'))) {
        const d = d0.replace(/^name: (.*)$/m, 'name: $1-again');
        const run = (cache: 'off' | 'read-write'): Omit<GuardResult, 'cache'> =>
          answer(guardDraft(dir, config, d, { targetPath: 'new-note.md', now, cache }));
        const off = run('off');
        expect(run('read-write')).toEqual(off); // computes, stores
        expect(run('read-write')).toEqual(off); // from the stored entries
        conflicts += off.matches.filter((m) => m.conflict).length;
      }
    expect(conflicts).toBeGreaterThan(0);
    // Long notes as columns, short ones whole (COLUMNS_FROM sentences).
    const forms = readdirSync(join(dir, CLAIMS_DIR))
      .filter((n) => /^[0-9a-f]{40}$/.test(n))
      .map(
        (n) =>
          decodeEntry(readFileSync(join(dir, CLAIMS_DIR, n))) as {
            stored: unknown;
            plain: { sentences: unknown[] } | null;
          },
      );
    expect(forms.some((e) => e.stored !== null)).toBe(true);
    expect(forms.some((e) => e.plain !== null)).toBe(true);
    for (const e of forms) if (e.plain) expect(e.plain.sentences.length).toBeLessThan(COLUMNS_FROM);
  });
});
