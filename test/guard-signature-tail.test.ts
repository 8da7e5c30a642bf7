/**
 * Issue 14: guard's signature cache reads its head (sizes, mtimes, signatures, paths, metadata) on
 * every call and each note's shingles and links only when asked: the MinHash candidates' shingles in
 * coalesced ranges, the links for an index write. What is read lazily must be what a whole read
 * gives, from the file the head came from even when another call has replaced the file meanwhile,
 * and a note edited in place, added or removed must never be answered from the stale entry.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { readCache, type SignatureTable } from '../src/guard/cache.js';
import { noteVault } from './helpers/note-vault.js';

const WORDS = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega rho tau phi chi psi'.split(' ');
/** A note whose body length varies with i (some long: their shingles span more than one coalesced read). */
function note(i: number): string {
  const sentences: string[] = [];
  const n = i % 7 === 0 ? 2200 : 3 + (i % 5) * 4;
  for (let k = 0; k < n; k++)
    sentences.push(
      `The ${WORDS[(i + k) % WORDS.length]} service w${(i * 31 + k * 17) % 9973} runs on port ${3000 + ((i * 7 + k) % 97)}.`,
    );
  const link = i > 1 ? ` See [[note-${i - 1}]].` : '';
  return `---\nname: note ${i}\ndescription: note number ${i}\ntype: project\n---\n\n${sentences.join(' ')}${link}\n`;
}

const vault = (n = 40): string => noteVault(n, note);

const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
  const { cache: _cache, ...rest } = r;
  return rest;
};

async function guard(dir: string, draft: string, cache: 'read-write' | 'off', targetPath = 'new-note.md') {
  const { config } = await loadConfig(dir, undefined, knownRuleIds);
  return guardDraft(dir, config, draft, { targetPath, cache, now: new Date('2026-12-01T00:00:00Z') });
}

/** Every entry's shingles and links, read whole. */
function whole(t: SignatureTable): Map<string, { shingles: number[]; links: readonly string[] }> {
  t.loadAll();
  const out = new Map<string, { shingles: number[]; links: readonly string[] }>();
  t.paths.forEach((p, i) => out.set(p, { shingles: [...t.shingles(i)], links: t.links(i) }));
  return out;
}

/** A seeded subset of 0..n-1. */
function subset(n: number, seed: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    if (x % 3 === 0) out.push(i);
  }
  return out;
}

describe('guard signature cache: shingles and links read where asked', () => {
  it('prefetched ranges give what a whole read gives, for any subset, in any order of asking', async () => {
    const dir = vault();
    await guard(dir, note(3), 'read-write');
    const a = readCache(dir)!;
    const all = whole(a);
    a.close();
    expect(all.size).toBe(40);
    expect([...all.values()].some((e) => e.shingles.length > 4096)).toBe(true);
    for (let seed = 1; seed <= 12; seed++) {
      const t = readCache(dir)!;
      const picked = subset(t.paths.length, seed);
      t.prefetch(seed % 2 ? picked : [...picked].reverse());
      // Asked in another order than prefetched, and some not prefetched at all (a read of their own).
      for (let i = t.paths.length - 1; i >= 0; i--) {
        expect([...t.note(i).shingles]).toEqual(all.get(t.paths[i]!)!.shingles);
        expect(t.note(i).links()).toEqual(all.get(t.paths[i]!)!.links);
      }
      t.close();
    }
  });

  it('scan visits each asked entry once with what a whole read gives, through a reused buffer; kept copies stay', async () => {
    const dir = vault();
    // One note whose shingles alone pass scan's reused buffer (256 KB: it gets a buffer of its own).
    const words = Array.from({ length: 70_000 }, (_, k) => `u${k.toString(36)}`).join(' ');
    writeFileSync(join(dir, 'note-huge.md'), `---\nname: huge\ndescription: d\ntype: project\n---\n\n${words}\n`);
    await guard(dir, note(3), 'read-write');
    const a = readCache(dir)!;
    const all = whole(a);
    a.close();
    expect(Math.max(...[...all.values()].map((e) => e.shingles.length))).toBeGreaterThan(65536);
    for (let seed = 1; seed <= 12; seed++) {
      const t = readCache(dir)!;
      const picked = subset(t.paths.length, seed);
      if (seed % 3 === 0) picked.push(...subset(t.paths.length, seed + 100)); // some asked twice
      const asked = seed % 2 ? picked : [...picked].reverse();
      // Some already read (prefetched, or kept): scan gives those without reading them again.
      if (seed % 4 === 0) t.prefetch(asked.slice(0, 3));
      const seen = new Array<number>(asked.length).fill(0);
      const got = new Array<number[]>(asked.length);
      t.scan(asked, (k, shingles) => {
        seen[k]!++;
        got[k] = [...shingles];
        if (k % 2 === 0) t.keep(asked[k]!, shingles);
      });
      expect(seen.every((c) => c === 1)).toBe(true);
      asked.forEach((i, k) => expect(got[k], `${seed} ${t.paths[i]}`).toEqual(all.get(t.paths[i]!)!.shingles));
      t.close();
      // Kept copies are the entry's shingles after the reused buffer moved on (and after the file is closed).
      asked.forEach((i, k) => {
        if (k % 2 === 0) expect([...t.shingles(i)]).toEqual(all.get(t.paths[i]!)!.shingles);
      });
    }
  });

  it('signatures read one by one, or whole on the first estimate, equal a whole read', async () => {
    const dir = vault(1200);
    await guard(dir, note(3), 'read-write');
    const whole = readCache(dir)!;
    whole.loadAll();
    const sigs = whole.paths.map((_, i) => [...whole.note(i).signature]);
    for (let seed = 1; seed <= 3; seed++) {
      const t = readCache(dir)!; // signatures not read yet
      for (const i of [0, 511, 512, t.paths.length - 1, (seed * 97) % t.paths.length])
        expect([...t.note(i).signature]).toEqual(sigs[i]);
      const draft = whole.note((seed * 97) % t.paths.length).signature;
      for (const i of subset(t.paths.length, seed)) expect(t.estimate(i, draft)).toBe(whole.estimate(i, draft));
      t.close();
    }
    whole.close();
  });

  it('a table keeps reading the file its head came from after another call replaced it, and throws once closed', async () => {
    const dir = vault();
    await guard(dir, note(3), 'read-write');
    const before = readCache(dir)!;
    const expected = whole(readCache(dir)!);
    const open = readCache(dir)!;
    // Another call writes a new cache file after note 14 and note 21 changed (two changed notes alone would go to the
    // delta file: the table is removed first, so that the call writes a whole new one at its path).
    writeFileSync(join(dir, 'note-14.md'), note(15).replace('note 15', 'note 14'));
    appendFileSync(join(dir, 'note-21.md'), 'A new sentence about the omega port.\n');
    rmSync(join(dir, '.memlint', 'cache', 'guard-v2.bin'));
    await guard(dir, note(3), 'read-write');
    const now = whole(readCache(dir)!);
    expect(now.get('note-14.md')!.shingles).not.toEqual(expected.get('note-14.md')!.shingles);
    const i14 = open.indexOf('note-14.md')!;
    const i21 = open.indexOf('note-21.md')!;
    open.prefetch([i14]);
    expect([...open.shingles(i14)]).toEqual(expected.get('note-14.md')!.shingles);
    expect([...open.shingles(i21)]).toEqual(expected.get('note-21.md')!.shingles);
    expect(open.links(i21)).toEqual(expected.get('note-21.md')!.links);
    open.close();
    before.close();
    const closed = readCache(dir)!;
    closed.close();
    expect(() => closed.shingles(0)).toThrow(/closed/);
    expect(closed.paths.length).toBe(40);
  });

  it('answers equal the cache off after a note is edited in place, added, removed, and with a corrupt tail', async () => {
    const dir = vault();
    // Named apart from the notes they copy (a draft named as a note is an update of it, not compared).
    const drafts = [note(16), note(14), note(7), `${note(22)}Also the sigma port.\n`].map((d) =>
      d.replace(/^name: note (\d+)$/m, 'name: draft of $1'),
    );
    const same = async (): Promise<void> => {
      for (const d of drafts) {
        const off = answer(await guard(dir, d, 'off'));
        expect(answer(await guard(dir, d, 'read-write'))).toEqual(off);
        expect(answer(await guard(dir, d, 'read-write'))).toEqual(off);
      }
    };
    await same();
    // In place, same size: another sentence of the same length (mtime changes).
    const edited = note(16).replace('alpha', 'omega').replace('beta', 'zeta');
    expect(edited.length).toBe(note(16).length);
    expect(edited).not.toBe(note(16));
    writeFileSync(join(dir, 'note-16.md'), edited);
    await same();
    writeFileSync(join(dir, 'note-41.md'), note(14));
    await same();
    rmSync(join(dir, 'note-22.md'));
    await same();
    // The links section's tail overwritten ('[' does not decode): the head reads, the index write
    // that needs the links answers again without the cache.
    const file = join(dir, '.memlint', 'cache', 'guard-v2.bin');
    const bytes = readFileSync(file);
    bytes.fill(0x5b, bytes.length - 30);
    writeFileSync(file, bytes);
    const text = readFileSync(join(dir, 'MEMORY.md'), 'utf8').replace('- [N](note-40.md)\n', '');
    const off = answer(await guard(dir, text, 'off', 'MEMORY.md'));
    expect(off.index?.reasons.join(' ')).toContain('note-40.md');
    expect(answer(await guard(dir, text, 'read-write', 'MEMORY.md'))).toEqual(off);
  });
});
