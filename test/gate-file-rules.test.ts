// The post-state gate compares the vault's error findings with the post-image's (issue 14). A file the plan
// leaves as it was has the same file-rule findings on both sides (they cancel), so the gate runs file rules on the
// files a plan changes only: at hard 10k the vault's own security scan of every note was ~3 s of every consolidate.
// Counted, not timed: the file-rule runs do not grow with the notes the plan does not touch, and neither do the
// post-image's parses (it takes the vault's own parse of a file it leaves as it was).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withholdRefused } from '../src/apply/withhold.js';
import { loadConfig } from '../src/config/load.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';
import { tempDir } from './helpers/run.js';

const root = tempDir();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const word = (i: number): string => `w${i.toString(36)}x`;

/** n notes, each on its own index line, and two index lines linking a note by a misspelled stem (relink items). */
async function gate(n: number): Promise<{ counts: Record<string, number>; ids: string[]; withheld: unknown[] }> {
  const dir = join(root, `v${n}`);
  mkdirSync(dir, { recursive: true });
  const index = ['# Memory', ''];
  for (let i = 0; i < n; i++) {
    const stem = `topic-${word(i)}-guide`;
    writeFileSync(
      join(dir, `${stem}.md`),
      `---\nname: ${stem}\ndescription: guide ${word(i)}\ntype: project\n---\nThe ${word(i)} guide. Never commit \`.env\` files.\n`,
    );
    index.push(`- [${stem}](${stem}.md) — the ${word(i)} guide`);
  }
  for (const i of [0, 1]) index.push(`- see also [[topic-${word(i)}-guid]] — alpha beta gamma ${word(i)}`);
  writeFileSync(join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  const vault = loadVault(dir, { config: (await loadConfig(dir, undefined, knownRuleIds)).config });
  const proposal = consolidateVault(vault, { now: new Date('2026-01-01T00:00:00Z') });
  startCounting();
  const gated = withholdRefused(proposal, vault);
  const counts = stopCounting();
  return {
    counts,
    ids: gated.items.map((i) => `${i.kind}:${i.action.type}`),
    withheld: (gated.summary?.withheld as unknown[] | undefined) ?? [],
  };
}

describe('the post-state gate: file rules on the files a plan changes', () => {
  it('runs as many file rules for 30 notes as for 150 (the plan changes MEMORY.md alone)', async () => {
    const small = await gate(30);
    const large = await gate(150);
    expect(small.ids).toEqual(['dangling-link:relink', 'dangling-link:relink']);
    expect(large.ids).toEqual(small.ids);
    expect(large.withheld).toEqual([]);
    expect(small.counts['apply.gateJudged']).toBe(1);
    expect(large.counts['apply.gateJudged']).toBe(1);
    // The rules ran on the changed index (before and after), not on every note.
    expect(small.counts['apply.fileRuleRuns'] ?? 0).toBeGreaterThan(0);
    expect(large.counts['apply.fileRuleRuns']).toBe(small.counts['apply.fileRuleRuns']);
  }, 300_000);

  it('offers file rules only the files a plan changes, not every note to be skipped (hard 10k: 1.5 M offers)', async () => {
    const small = await gate(30);
    const large = await gate(150);
    expect(large.ids).toEqual(small.ids);
    expect(small.counts['apply.fileRuleVisits'] ?? 0).toBeGreaterThan(0);
    expect(large.counts['apply.fileRuleVisits']).toBe(small.counts['apply.fileRuleVisits']);
  }, 300_000);

  it('parses the files a plan changes, not every note again (the post-image takes the vault’s own parses)', async () => {
    const small = await gate(30);
    const large = await gate(150);
    expect(large.ids).toEqual(small.ids);
    expect(small.counts['apply.postImageParses'] ?? 0).toBeGreaterThan(0);
    expect(large.counts['apply.postImageParses']).toBe(small.counts['apply.postImageParses']);
  }, 300_000);
});
