/**
 * Issue 14: an index write keeps its reading of the index texts (before and after the write) in
 * VAULT/.memlint/cache/guard-index-v1.bin. A cached reading must give the answer a fresh one gives:
 * warm, after the index changes on disk, after the budget or the measure changes in the config,
 * and from a corrupt cache file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import type { Config } from '../src/config/schema.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft, type GuardResult } from '../src/guard/guard.js';
import { INDEX_CACHE_FILE } from '../src/guard/index-target.js';
import { tempDir } from './helpers/run.js';

const note = (i: number): string =>
  `---\nname: note ${i}\ndescription: fact number ${i}\ntype: project\n---\n\nFact number ${i} links [[note-${i + 1}]].\n`;
const line = (i: number): string => `- [Note ${i}](note-${i}.md) — fact number ${i} with some words to take room`;

/** 300 notes, an index linking each (past the 200-line cut: lost entries in the answer). */
function vault(): string {
  const dir = tempDir();
  for (let i = 1; i <= 300; i++) writeFileSync(join(dir, `note-${i}.md`), note(i));
  writeFileSync(join(dir, 'MEMORY.md'), `${Array.from({ length: 300 }, (_, k) => line(k + 1)).join('\n')}\n`);
  return dir;
}

const answer = (r: GuardResult): Omit<GuardResult, 'cache'> => {
  const { cache: _cache, ...rest } = r;
  return rest;
};
const write = (dir: string, config: Config, text: string, cache: 'read-write' | 'off'): Omit<GuardResult, 'cache'> =>
  answer(guardDraft(dir, config, text, { targetPath: config.index.file, cache }));
/** The index minus line k (1-based) and plus a line linking a note that does not exist. */
const edited = (text: string, k: number): string =>
  `${text
    .split('\n')
    .filter((_, i) => i !== k - 1)
    .join('\n')
    .trimEnd()}\n- [Gone](gone.md) — nothing\n`;

describe('guard: the index views cache', () => {
  it('a warm cache answers as a fresh reading does, and follows the index on disk', async () => {
    const dir = vault();
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    const draft = edited(index, 3);
    const off = write(dir, config, draft, 'off');
    expect(off.verdict).toBe('ask'); // past the cut already, and a link to nothing
    expect(off.index?.measured?.lost?.length).toBeGreaterThan(90);
    expect(existsSync(join(dir, INDEX_CACHE_FILE))).toBe(false);
    expect(write(dir, config, draft, 'read-write')).toEqual(off);
    expect(existsSync(join(dir, INDEX_CACHE_FILE))).toBe(true);
    expect(write(dir, config, draft, 'read-write')).toEqual(off);
    // The write happens: the index on disk is the draft, and the next write starts from it.
    writeFileSync(join(dir, 'MEMORY.md'), draft);
    const next = edited(draft, 5);
    const nextOff = write(dir, config, next, 'off');
    expect(nextOff).not.toEqual(off);
    expect(write(dir, config, next, 'read-write')).toEqual(nextOff);
  });

  it('a change of budget or measure in the config is not answered from the old reading', async () => {
    const dir = vault();
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const draft = edited(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), 3);
    write(dir, config, draft, 'read-write');
    const wider = { ...config, index: { ...config.index, maxLines: 400, maxBytes: 100_000 } };
    const widerOff = write(dir, wider, draft, 'off');
    expect(widerOff.index?.measured?.lost).toEqual([]);
    expect(write(dir, wider, draft, 'read-write')).toEqual(widerOff);
    const utf8 = { ...config, index: { ...config.index, measure: 'utf8' as const } };
    expect(write(dir, utf8, draft, 'read-write')).toEqual(write(dir, utf8, draft, 'off'));
  });

  it('a corrupt cache file is read as none', async () => {
    const dir = vault();
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const draft = edited(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), 3);
    const off = write(dir, config, draft, 'off');
    write(dir, config, draft, 'read-write');
    writeFileSync(join(dir, INDEX_CACHE_FILE), 'not a cache');
    expect(write(dir, config, draft, 'read-write')).toEqual(off);
    expect(write(dir, config, draft, 'read-write')).toEqual(off);
  });
});
