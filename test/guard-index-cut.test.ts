/**
 * Issue 14: a note write asks how much room the index has; on a 9,000-line index decoding and measuring it was
 * ~45 M instructions per write. The cut is kept with the very bytes it was measured on
 * (VAULT/.memlint/cache/guard-index-cut-v1.bin) and used only for those bytes and that budget.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import type { Config } from '../src/config/schema.js';
import { guardDraft } from '../src/guard/guard.js';
import { INDEX_CUT_FILE } from '../src/guard/index-target.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { tempDir } from './helpers/run.js';

const note = (i: number): string =>
  `---\nname: note-${i}\ndescription: fact number ${i}\ntype: project\n---\n\nThe build of service ${i} runs on port ${3000 + i}.\n`;
const indexLines = (n: number): string =>
  `# Memory\n\n${Array.from({ length: n }, (_, i) => `- [Note ${i}](note-${i}.md) — fact number ${i}`).join('\n')}\n`;
const DRAFT =
  '---\nname: brand-new\ndescription: a fact not seen before\ntype: project\n---\n\nThe release train leaves on Thursdays at noon.\n';

function vault(lines: number): string {
  const dir = tempDir();
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `note-${i}.md`), note(i));
  writeFileSync(join(dir, 'MEMORY.md'), indexLines(lines));
  return dir;
}
const reasons = (dir: string, config: Config, cache: 'read-write' | 'off'): string =>
  guardDraft(dir, config, DRAFT, { targetPath: 'note-999.md', cache }).reasons.join('\n');

describe("guard: the index's cut for note writes", () => {
  it('is measured once, then answered from the cache for the same bytes, as without it', async () => {
    const dir = vault(300);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const off = reasons(dir, config, 'off');
    expect(off).toMatch(/has no room for this note's line: 0 lines .*\(302\/200 lines/);
    expect(reasons(dir, config, 'read-write')).toBe(off); // measured and written
    const file = join(dir, INDEX_CUT_FILE);
    const stored = readFileSync(file);
    expect(stored.subarray(stored.indexOf(0x0a) + 1).equals(readFileSync(join(dir, 'MEMORY.md')))).toBe(true);
    expect(reasons(dir, config, 'read-write')).toBe(off); // from the cache
    // The cache is what answers: a stored count is what the answer says (the bytes unchanged).
    writeFileSync(file, stored.toString('latin1').replace('"lines":302', '"lines":777'), 'latin1');
    expect(reasons(dir, config, 'read-write')).toMatch(/\(777\/200 lines/);
  });

  it('an index edited to the same size is measured again', async () => {
    const dir = vault(300);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    reasons(dir, config, 'read-write');
    const text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    // Two lines joined into one, the same bytes long: one line fewer.
    writeFileSync(join(dir, 'MEMORY.md'), text.replace('fact number 7\n- [Note 8]', 'fact number 7 - [Note 8]'));
    expect(readFileSync(join(dir, 'MEMORY.md')).length).toBe(Buffer.byteLength(text));
    const off = reasons(dir, config, 'off');
    expect(off).toMatch(/\(301\/200 lines/);
    expect(reasons(dir, config, 'read-write')).toBe(off);
  });

  it('another budget, or a corrupt cache, is measured again', async () => {
    const dir = vault(150);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const tight: Config = { ...config, index: { ...config.index, maxLines: 100 } };
    const off = reasons(dir, tight, 'off');
    expect(off).toMatch(/\(152\/100 lines/);
    expect(reasons(dir, tight, 'read-write')).toBe(off); // cut under 100 lines, and stored so
    expect(reasons(dir, config, 'read-write')).not.toMatch(/no room/); // 152 lines fit in 200
    expect(reasons(dir, tight, 'read-write')).toBe(off);
    writeFileSync(join(dir, INDEX_CUT_FILE), '{"magic":\n');
    expect(reasons(dir, tight, 'read-write')).toBe(off);
    writeFileSync(join(dir, INDEX_CUT_FILE), 'no header line at all');
    expect(reasons(dir, tight, 'read-write')).toBe(off);
  });
});
