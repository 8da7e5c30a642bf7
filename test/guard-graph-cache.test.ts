/**
 * Issue 14: an index write that removes a link keeps the vault's resolved link graph in
 * VAULT/.memlint/cache/guard-graph-v1.bin. A stored graph must give the answer a graph built now
 * gives: after a note's links change (other size; same size, other mtime), a note added or removed,
 * the catalog changed, the signature cache rebuilt under it, a link the stored memo never saw, and
 * from a corrupt file. `graphSession` is also driven directly, to see that the stored graph is used.
 */
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import type { Config } from '../src/config/schema.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { CACHE_FILE } from '../src/guard/cache.js';
import { GRAPH_CACHE_FILE, graphSession } from '../src/guard/graph-cache.js';
import { linkGraph } from '../src/guard/link-graph.js';
import { noteSignatures } from '../src/guard/signatures.js';
import { discover } from '../src/vault/discover.js';
import { tempDir } from './helpers/run.js';

const note = (i: number, body: string): string =>
  `---\nname: note ${i}\ndescription: fact number ${i}\ntype: project\n---\n\nFact number ${i}. ${body}\n`;
const line = (i: number): string => `- [Note ${i}](note-${i}.md) — fact number ${i}`;

/**
 * note-1 → note-2 → note-3; note-4 → note-9 (a note nobody else links); notes 5–12 linked by the index only.
 * The index links 1, 3, 4, 5–8; removing note-1's line leaves note-1 and note-2 unreachable.
 */
function vault(): string {
  const dir = tempDir();
  const links: Record<number, string> = { 1: 'See [[note-2]].', 2: 'See [[note-3]].', 4: 'See [[note-9]].' };
  for (let i = 1; i <= 12; i++) writeFileSync(join(dir, `note-${i}.md`), note(i, links[i] ?? ''));
  writeFileSync(join(dir, 'MEMORY.md'), `${[1, 3, 4, 5, 6, 7, 8].map(line).join('\n')}\n`);
  return dir;
}
const withoutNote1 = (dir: string): string =>
  readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    .split('\n')
    .filter((l) => !l.includes('(note-1.md)'))
    .join('\n');

const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
  const { cache: _cache, ...rest } = r;
  return rest;
};
const write = (dir: string, config: Config, text: string, cache: 'read-write' | 'read-only' | 'off'): GuardResult =>
  guardDraft(dir, config, text, { targetPath: config.index.file, cache });
/** Read-write, twice (the first call may only store; the second uses what was stored): both must be `off`'s answer. */
function expectSame(dir: string, config: Config, text: string): Omit<GuardResult, 'cache'> {
  const off = answer(write(dir, config, text, 'off'));
  expect(answer(write(dir, config, text, 'read-write'))).toEqual(off);
  expect(answer(write(dir, config, text, 'read-write'))).toEqual(off);
  return off;
}
const unreachableOf = (r: Omit<GuardResult, 'cache'>): string =>
  r.index?.reasons.find((x) => x.includes('only path')) ?? '(none)';

/** One index-write graph through graphSession, counting how often it had to be built. */
function session(dir: string, config: Config) {
  const found = discover(dir);
  let builds = 0;
  const s = graphSession(dir, config, found, 'read-write', () => {
    builds++;
    const sigs = noteSignatures(dir, config, found, { cache: 'read-write' });
    return { sigs, graph: linkGraph(dir, config, found, sigs) };
  });
  const g = s.graph();
  const reached = [...g.reach([g.resolve(config.index.file, 'markdown', 'note-1.md') as string])].sort();
  s.save();
  return { builds, reached, fromStored: s.fromStored };
}

/** A vault, its config, the write that drops note-1's line, and that write answered once (caches warm). */
async function started(): Promise<{ dir: string; config: Config; draft: string }> {
  const dir = vault();
  const { config } = await loadConfig(dir, undefined, knownRuleIds);
  const draft = withoutNote1(dir);
  expectSame(dir, config, draft);
  return { dir, config, draft };
}

describe('guard: the link graph cache', () => {
  it('is stored by a call that read an unchanged signature cache, then used, and answers as a built graph', async () => {
    const dir = vault();
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    expect(session(dir, config).builds).toBe(1); // signature cache written now: the graph is not stored
    expect(existsSync(join(dir, GRAPH_CACHE_FILE))).toBe(false);
    const second = session(dir, config);
    expect(second.builds).toBe(1);
    expect(existsSync(join(dir, GRAPH_CACHE_FILE))).toBe(true);
    const third = session(dir, config);
    expect(third).toEqual({ builds: 0, reached: second.reached, fromStored: 12 });
    expect(third.reached).toEqual(['note-1.md', 'note-2.md', 'note-3.md']);
    const off = expectSame(dir, config, withoutNote1(dir));
    expect(unreachableOf(off)).toContain('2 note(s)');
    expect(unreachableOf(off)).toContain('note-1.md, note-2.md');
  });

  it('follows a note whose links change in place (other size; same size, other mtime)', async () => {
    const { dir, config, draft } = await started();
    // note-4 now links note-2 as well: removing note-1's line leaves only note-1 unreachable.
    writeFileSync(join(dir, 'note-4.md'), note(4, 'See [[note-9]] and [[note-2]].'));
    const one = unreachableOf(expectSame(dir, config, draft));
    expect(one).toContain('1 note(s)');
    expect(one).not.toContain('note-2.md');
    // Same size, later mtime: note-4 links note-3 instead of note-2 (note-2 unreachable again).
    writeFileSync(join(dir, 'note-4.md'), note(4, 'See [[note-9]] and [[note-3]].'));
    const t = statSync(join(dir, 'note-4.md')).mtimeMs / 1000 + 5;
    utimesSync(join(dir, 'note-4.md'), t, t);
    expect(unreachableOf(expectSame(dir, config, draft))).toContain('note-1.md, note-2.md');
  });

  it('follows notes added and removed, and the catalog', async () => {
    const { dir, config, draft } = await started();
    // A new note linking note-2, linked from note-5 (which the index links): note-2 stays reachable.
    writeFileSync(join(dir, 'note-13.md'), note(13, 'See [[note-2]].'));
    writeFileSync(join(dir, 'note-5.md'), note(5, 'See [[note-13]].'));
    expect(unreachableOf(expectSame(dir, config, draft))).toContain('1 note(s)');
    rmSync(join(dir, 'note-13.md'));
    expect(unreachableOf(expectSame(dir, config, draft))).toContain('note-1.md, note-2.md');
    // A link to a file that is not there yet is broken; once that (secondary index) file exists the
    // link lands there: no note changed, but the listing did.
    const toArchive = `${draft.trimEnd()}\n- [Archive](MEMORY-archive.md)\n`;
    expect(expectSame(dir, config, toArchive).index?.reasons.join(' ')).toContain('do not exist: MEMORY-archive.md');
    writeFileSync(join(dir, 'MEMORY-archive.md'), '# Archive\n');
    expect(expectSame(dir, config, toArchive).index?.reasons.join(' ')).not.toContain('do not exist');
    // The catalog reaches notes whatever the index says: it links note-2 now.
    writeFileSync(join(dir, config.catalog.file), '# Catalog\n\n- [Note 2](note-2.md)\n');
    expect(unreachableOf(expectSame(dir, config, draft))).not.toContain('note-2.md');
  });

  it('is not used over a signature cache rebuilt under it (a same-size, same-mtime edit it had kept)', async () => {
    const dir = vault();
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const draft = withoutNote1(dir);
    const p = join(dir, 'note-4.md');
    const t = Math.floor(Date.now() / 1000) - 100; // whole seconds: put back exactly below
    utimesSync(p, t, t);
    expectSame(dir, config, draft);
    // note-4: [[note-9]] → [[note-2]], same size, mtime put back: the signature cache keeps the old links.
    writeFileSync(p, note(4, 'See [[note-2]].'));
    utimesSync(p, t, t);
    const stale = answer(write(dir, config, draft, 'read-write'));
    expect(unreachableOf(stale)).toContain('note-1.md, note-2.md'); // as the signature cache says (kept by size and mtime)
    // The signature cache is lost: a graph built now reads note-4 again; the stored graph must not answer.
    rmSync(join(dir, CACHE_FILE));
    const fresh = answer(write(dir, config, draft, 'read-write'));
    expect(fresh).toEqual(answer(write(dir, config, draft, 'off')));
    expect(unreachableOf(fresh)).not.toContain('note-2.md');
  });

  it('answers a link its memo never saw, and reads a corrupt file as none; read-only and off write nothing', async () => {
    const { dir, config, draft } = await started();
    // A wikilink to a note and one to nothing: resolved through the full graph, same answer.
    const more = `${draft.trimEnd()}\n- [[note-2]] and [[nowhere]]\n`;
    const r = expectSame(dir, config, more);
    expect(r.index?.reasons.join(' ')).toContain('nowhere');
    expect(unreachableOf(r)).not.toContain('note-2.md');
    writeFileSync(join(dir, GRAPH_CACHE_FILE), 'not a graph');
    expectSame(dir, config, draft);
    const other = vault();
    const otherConfig = (await loadConfig(other, undefined, knownRuleIds)).config;
    expectSame(other, otherConfig, withoutNote1(other)); // stores a graph
    rmSync(join(other, GRAPH_CACHE_FILE));
    for (let k = 0; k < 2; k++) write(other, otherConfig, withoutNote1(other), 'read-only');
    write(other, otherConfig, withoutNote1(other), 'off');
    expect(existsSync(join(other, GRAPH_CACHE_FILE))).toBe(false);
  });
});
