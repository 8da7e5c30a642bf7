/**
 * Issue 14: the sentences and claims of the notes guard compares a draft with are cached per note
 * (src/guard/claims-cache.ts). A cached answer must be the answer without the cache: after the
 * note is edited (even keeping its size and mtime), after the cache file is corrupted, and from
 * another build's or another maxFileBytes' entry.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import type { Config } from '../src/config/schema.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { CLAIMS_DIR, COLUMNS_FROM, claimsStore, prune } from '../src/guard/claims-cache.js';
import { thingIndex, type NoteClaims } from '../src/similarity/claims.js';
import { claimsOf, noteClauses } from '../src/similarity/conflict.js';
import { makeVaultFile, readMarkdownFile } from '../src/vault/file.js';
import { copyToTemp, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const NOTE = 'project_test-stack.md';
const DRAFT =
  '---\nname: vitest-too\ndescription: about vitest-too\ntype: feedback\n---\n\nThe web package tests run on Jest only; use Jest for all unit tests.\n';
const now = new Date('2026-12-01T00:00:00Z');

/** The answer without the count of cached notes (how it got there, not what it says). */
const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
  const { cache: _cache, ...rest } = r;
  return rest;
};
const run = (dir: string, config: Config, cache: 'read-write' | 'off'): Omit<GuardResult, 'cache'> =>
  answer(guardDraft(dir, config, DRAFT, { targetPath: 'feedback_jest.md', now, cache }));

/** Rewrites a note in place with the same size and mtime (an edit within one timestamp tick). */
function editKeepingTimes(file: string, from: string, to: string): void {
  const st = statSync(file);
  const text = readFileSync(file, 'utf8');
  expect(to.length).toBe(from.length);
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
  utimesSync(file, st.atime, st.mtime);
  expect(statSync(file).size).toBe(st.size);
}

describe('guard: the claims cache', () => {
  it('a warm cache gives the answer the engine gives without it, and is used', async () => {
    const dir = copyToTemp(DEMO);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const off = run(dir, config, 'off');
    expect(off.matches.some((m) => m.kind === 'contradiction' && m.path === NOTE)).toBe(true);
    expect(
      readdirSync(dir).includes('.memlint') && readdirSync(join(dir, '.memlint')).includes('cache')
        ? readdirSync(join(dir, '.memlint', 'cache'))
        : [],
    ).not.toContain('guard-claims');
    expect(run(dir, config, 'read-write')).toEqual(off); // computes and writes
    expect(readdirSync(join(dir, CLAIMS_DIR)).filter((n) => /^[0-9a-f]{40}$/.test(n)).length).toBeGreaterThan(0);
    expect(run(dir, config, 'read-write')).toEqual(off); // from the cache
    const store = claimsStore(dir, config, 'read-only');
    expect(store.view(NOTE)).not.toBeNull();
    expect(store.counts).toEqual({ hits: 1, misses: 0 });
  });

  it('an edit that keeps size and mtime is seen (entries are keyed by the bytes)', async () => {
    const dir = copyToTemp(DEMO);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const before = run(dir, config, 'read-write');
    run(dir, config, 'read-write');
    editKeepingTimes(
      join(dir, NOTE),
      'We replaced Jest with Vitest in October',
      'We replaced Mocha with Jest in October.',
    );
    const off = run(dir, config, 'off');
    expect(off).not.toEqual(before); // the edit changes the answer: the test can tell a stale entry
    expect(run(dir, config, 'read-write')).toEqual(off);
    const store = claimsStore(dir, config, 'read-only');
    store.view(NOTE);
    expect(store.counts).toEqual({ hits: 1, misses: 0 }); // the new bytes were written anew
  });

  it('a cached entry brings its thing index: the engine does not rebuild it from every word of the note', async () => {
    const dir = copyToTemp(DEMO);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const head = '---\nname: NAME\ndescription: about NAME\ntype: feedback\n---\n\n';
    const long = Array.from(
      { length: COLUMNS_FROM + 20 },
      (_, i) => `Step ${i} of the release checks item${i} carefully.`,
    );
    long.splice(7, 0, 'Never store session tokens in localstorage; avoid cookies without httponly.');
    const notes = {
      'feedback_short.md': `${head.replace(/NAME/g, 'short')}Never store session tokens in localstorage; use \`redis\` instead.\n`,
      'feedback_long.md': `${head.replace(/NAME/g, 'long')}${long.join(' ')}\n`,
    };
    for (const [path, text] of Object.entries(notes)) writeFileSync(join(dir, path), text);
    const writing = claimsStore(dir, config, 'read-write');
    for (const path of Object.keys(notes)) expect(writing.view(path)).not.toBeNull();
    writing.save();
    for (const path of Object.keys(notes)) {
      const abs = join(dir, path);
      const fresh = thingIndex(claimsOf(noteClauses(makeVaultFile(readMarkdownFile(path, abs, 'note', 1 << 24), []))));
      // The note refuses words of its prose: an index built without them differs (this test can tell).
      const claims = claimsOf(noteClauses(makeVaultFile(readMarkdownFile(path, abs, 'note', 1 << 24), [])));
      expect(thingIndex({ ...claims, words: new Map() })).not.toEqual(fresh);
      const store = claimsStore(dir, config, 'read-only');
      const view = store.view(path)!;
      expect(store.counts).toEqual({ hits: 1, misses: 0 });
      // Its words taken away: the index it gives is still the note's, so it was stored, not rebuilt.
      (view.claims as { -readonly [K in keyof NoteClaims]: NoteClaims[K] }).words = new Map();
      expect(thingIndex(view.claims!)).toEqual(fresh);
    }
  });

  it('a corrupt entry, or one from another maxFileBytes, is a miss, not an answer', async () => {
    const dir = copyToTemp(DEMO);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const off = run(dir, config, 'off');
    run(dir, config, 'read-write');
    const files = readdirSync(join(dir, CLAIMS_DIR)).filter((n) => /^[0-9a-f]{40}$/.test(n));
    for (const f of files) writeFileSync(join(dir, CLAIMS_DIR, f), 'not a cache entry');
    expect(run(dir, config, 'read-write')).toEqual(off);
    const other = { ...config, maxFileBytes: config.maxFileBytes - 1 };
    const store = claimsStore(dir, other, 'read-only');
    store.view(NOTE);
    expect(store.counts).toEqual({ hits: 0, misses: 1 });
  });
});

describe('guard: the claims cache stays bounded', () => {
  const entries = (dir: string): string[] =>
    readdirSync(dir)
      .filter((n) => /^[0-9a-f]{40}$/.test(n))
      .sort();
  /** Five entry files of 1,000 bytes, written at t = 1…5 s (name i = age order), and a file that is not one. */
  function folder(): string {
    const dir = join(tempDir(), 'claims');
    mkdirSync(dir);
    for (let i = 1; i <= 5; i++) {
      const f = join(dir, String(i).repeat(40));
      writeFileSync(f, 'x'.repeat(1000));
      utimesSync(f, new Date(i * 1000), new Date(i * 1000));
    }
    writeFileSync(join(dir, '.gitignore'), '*\n');
    return dir;
  }
  it('past the count, the least recently written go first', () => {
    const dir = folder();
    prune(dir, 3, Infinity);
    expect(entries(dir)).toEqual(['3', '4', '5'].map((c) => c.repeat(40)));
    expect(readdirSync(dir)).toContain('.gitignore');
  });
  it('past the bytes, too', () => {
    const dir = folder();
    prune(dir, 100, 2500);
    expect(entries(dir)).toEqual(['4', '5'].map((c) => c.repeat(40)));
  });
  it('under both, nothing goes', () => {
    const dir = folder();
    prune(dir, 5, 5000);
    expect(entries(dir)).toHaveLength(5);
  });
});
