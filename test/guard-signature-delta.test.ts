/**
 * Issue 14: after a few notes change, guard writes their signature entries to a small delta file
 * (`DELTA_FILE`) instead of rewriting the whole table (30 MB on the hard 10k bench vault). Each entry,
 * in either file, answers only for its note's size and mtime. Past `deltaLimit` changed or removed
 * notes the whole table is written again and the delta removed. The answers never depend on which.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { CACHE_FILE, DELTA_FILE, readCache } from '../src/guard/cache.js';
import { deltaLimit } from '../src/guard/signatures.js';
import { noteVault } from './helpers/note-vault.js';

const WORDS = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega rho tau phi chi psi'.split(' ');
function note(i: number): string {
  const sentences: string[] = [];
  for (let k = 0; k < 3 + (i % 5) * 4; k++)
    sentences.push(
      `The ${WORDS[(i + k) % WORDS.length]} service w${(i * 31 + k * 17) % 9973} runs on port ${3000 + ((i * 7 + k) % 97)}.`,
    );
  const link = i > 1 ? ` See [[note-${i - 1}]].` : '';
  return `---\nname: note ${i}\ndescription: note number ${i}\ntype: project\n---\n\n${sentences.join(' ')}${link}\n`;
}

const vault = (n: number): string => noteVault(n, note);

async function guard(dir: string, draft: string, cache: 'read-write' | 'off', targetPath = 'new-note.md') {
  const { config } = await loadConfig(dir, undefined, knownRuleIds);
  return guardDraft(dir, config, draft, { targetPath, cache, now: new Date('2026-12-01T00:00:00Z') });
}
const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
  const { cache: _cache, ...rest } = r;
  return rest;
};
// Drafts named apart from the notes they copy (a draft named as a note is an update of it, not compared).
const drafts = [note(16), note(14), `${note(22)}Also the sigma port.\n`].map((d) =>
  d.replace(/^name: note (\d+)$/m, 'name: draft of $1'),
);
/** Every draft answered as with the cache off, twice (the second call reads what the first wrote). */
async function same(dir: string): Promise<void> {
  for (const d of drafts) {
    const off = answer(await guard(dir, d, 'off'));
    expect(answer(await guard(dir, d, 'read-write'))).toEqual(off);
    expect(answer(await guard(dir, d, 'read-write'))).toEqual(off);
  }
}
const deltaPaths = (dir: string): readonly string[] | null => {
  const t = readCache(dir, DELTA_FILE);
  if (!t) return null;
  t.close();
  return t.paths;
};

describe('guard signature cache: the delta file', () => {
  it('an edit writes only the changed entry; the next call reads it and writes nothing', async () => {
    const dir = vault(40);
    await guard(dir, drafts[0]!, 'read-write');
    const table = readFileSync(join(dir, CACHE_FILE));
    expect(existsSync(join(dir, DELTA_FILE))).toBe(false);
    appendFileSync(join(dir, 'note-16.md'), 'The omega service moved to port 4100.\n');
    const r = await guard(dir, drafts[0]!, 'read-write');
    expect(r.cache).toEqual({ fromCache: 39, computed: 1 });
    expect(readFileSync(join(dir, CACHE_FILE)).equals(table)).toBe(true);
    expect(deltaPaths(dir)).toEqual(['note-16.md']);
    const written = statSync(join(dir, DELTA_FILE));
    const again = await guard(dir, drafts[0]!, 'read-write');
    expect(again.cache).toEqual({ fromCache: 40, computed: 0 });
    const after = statSync(join(dir, DELTA_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    await same(dir);
  });

  it('a delta entry whose note changed again is computed again; an added note joins it; a removed one leaves it', async () => {
    const dir = vault(40);
    await guard(dir, drafts[0]!, 'read-write');
    const table = readFileSync(join(dir, CACHE_FILE));
    appendFileSync(join(dir, 'note-16.md'), 'The omega service moved to port 4100.\n');
    await same(dir);
    appendFileSync(join(dir, 'note-16.md'), 'And back to port 3000.\n');
    expect((await guard(dir, drafts[1]!, 'read-write')).cache.computed).toBe(1);
    await same(dir);
    writeFileSync(join(dir, 'note-41.md'), note(14));
    await same(dir);
    expect(deltaPaths(dir)).toEqual(['note-16.md', 'note-41.md']);
    rmSync(join(dir, 'note-16.md'));
    await same(dir);
    expect(deltaPaths(dir)).toEqual(['note-41.md']);
    // A removed note's entry stays in the table (no note answers to it) until the table is written again.
    rmSync(join(dir, 'note-22.md'));
    await same(dir);
    expect(readFileSync(join(dir, CACHE_FILE)).equals(table)).toBe(true);
  });

  it('past the limit the whole table is written again and the delta removed', async () => {
    const n = 80;
    expect(deltaLimit(n)).toBe(64);
    const dir = vault(n);
    await guard(dir, drafts[0]!, 'read-write');
    for (let i = 1; i <= 10; i++) appendFileSync(join(dir, `note-${i}.md`), `Edited ${i}.\n`);
    await guard(dir, drafts[0]!, 'read-write');
    expect(deltaPaths(dir)).toHaveLength(10);
    for (let i = 11; i <= 65; i++) appendFileSync(join(dir, `note-${i}.md`), `Edited ${i}.\n`);
    const r = await guard(dir, drafts[0]!, 'read-write');
    expect(r.cache.computed).toBe(55);
    expect(existsSync(join(dir, DELTA_FILE))).toBe(false);
    const t = readCache(dir)!;
    t.close();
    expect(t.paths).toHaveLength(n);
    expect((await guard(dir, drafts[0]!, 'read-write')).cache).toEqual({ fromCache: n, computed: 0 });
    await same(dir);
    // Removed notes count too: 65 removed, the table is written without them.
    for (let i = 1; i <= 65; i++) rmSync(join(dir, `note-${i}.md`));
    await guard(dir, drafts[0]!, 'read-write');
    const u = readCache(dir)!;
    u.close();
    expect(u.paths).toHaveLength(n - 65);
    await same(dir);
  });

  it('a corrupt delta is not used and is written anew', async () => {
    const dir = vault(40);
    await guard(dir, drafts[0]!, 'read-write');
    appendFileSync(join(dir, 'note-16.md'), 'The omega service moved to port 4100.\n');
    await guard(dir, drafts[0]!, 'read-write');
    const file = join(dir, DELTA_FILE);
    const bytes = readFileSync(file);
    bytes.fill(0x5b, bytes.length - 40);
    writeFileSync(file, bytes);
    await same(dir);
    expect(deltaPaths(dir)).toEqual(['note-16.md']);
  });
});
