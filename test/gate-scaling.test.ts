// The post-state gate's work per item is proportional to the item, not to the index (issue 14): counted, not
// timed, on one vault shape at two sizes. Each index line links a note by a misspelled stem (a relink item), its
// words shared with every other line (a removed line's rarest interior word names every line of the index).
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

async function gateCounts(n: number): Promise<{ counts: Record<string, number>; relinks: number; withheld: number }> {
  const dir = join(root, `v${n}`);
  mkdirSync(dir, { recursive: true });
  const index = ['# Memory', ''];
  for (let i = 0; i < n; i++) {
    const stem = `topic-${word(i)}-guide`;
    writeFileSync(
      join(dir, `${stem}.md`),
      `---\nname: ${stem}\ndescription: guide ${word(i)}\ntype: project\n---\nThe ${word(i)} guide.\n`,
    );
    // One letter dropped from the stem: did-you-mean names the note, consolidate proposes a relink.
    index.push(`- see also [[topic-${word(i)}-guid]] — alpha beta gamma delta epsilon ${word(i)}`);
  }
  writeFileSync(join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  const vault = loadVault(dir, { config: (await loadConfig(dir, undefined, knownRuleIds)).config });
  const proposal = consolidateVault(vault, { now: new Date('2026-01-01T00:00:00Z') });
  startCounting();
  const gated = withholdRefused(proposal, vault);
  const counts = stopCounting();
  return {
    counts,
    relinks: gated.items.filter((i) => i.action.type === 'relink').length,
    withheld: ((gated.summary?.withheld as unknown[] | undefined) ?? []).length,
  };
}

describe('the post-state gate: work per item, 150 → 600 index lines', () => {
  it('tests links and fact lines about linearly in the items (≤ 5× for 4× the items; quadratic is 16×)', async () => {
    const small = await gateCounts(150);
    const large = await gateCounts(600);
    expect(small.relinks).toBe(150);
    expect(large.relinks).toBe(600);
    expect(large.withheld).toBe(0);
    // relink: each item looks up its own links, not every link of the index.
    expect(small.counts['apply.retargetLinkTests']).toBeGreaterThanOrEqual(150);
    for (const name of ['apply.retargetLinkTests', 'apply.factLineTests', 'apply.factLineCandidates']) {
      const ratio = (large.counts[name] ?? 0) / Math.max(1, small.counts[name] ?? 0);
      expect(ratio, `${name}: ${small.counts[name]} → ${large.counts[name]}`).toBeLessThanOrEqual(5);
    }
  }, 300_000);
});
