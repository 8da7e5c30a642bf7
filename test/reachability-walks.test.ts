// rules/reachability.ts computes `linked` (through links) and `mentioned` (through links and mentions) in one
// reading of each file's links. Here it is compared with the two plain walks it replaced, on a vault built to
// chain links and mentions, the demo vault, a generated hard vault and the corpus.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { computeReachability } from '../src/rules/reachability.js';
import { loadVault } from '../src/vault/load.js';
import type { Vault, VaultFile } from '../src/vault/model.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';

const root = mkdtempSync(join(tmpdir(), 'memlint-reach-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The two walks as they were: from the roots, through links (and mentions when asked). */
function reference(vault: Vault): { linked: Set<string>; mentioned: Set<string> } {
  const roots = [vault.index, vault.catalog, ...vault.secondaryIndexes].filter((f): f is VaultFile => f !== null);
  const walk = (withMentions: boolean): Set<string> => {
    const seen = new Set<string>();
    const queue: VaultFile[] = [...roots];
    while (queue.length) {
      const file = queue.pop()!;
      for (const l of file.links) {
        if (!l.resolved || (l.kind === 'mention' && !withMentions) || seen.has(l.resolved)) continue;
        seen.add(l.resolved);
        const next = vault.byPath.get(l.resolved);
        if (next && next.role === 'note') queue.push(next);
      }
    }
    return seen;
  };
  return { linked: walk(false), mentioned: walk(true) };
}

const note = (name: string, body: string): string =>
  `---\nname: ${name}\ndescription: d\ntype: project\n---\n${body}\n`;

async function same(dir: string): Promise<number> {
  const vault = loadVault(dir, { config: (await loadConfig(dir, undefined, knownRuleIds)).config });
  const got = computeReachability(vault);
  const want = reference(vault);
  expect([...got.linked].sort(), dir).toEqual([...want.linked].sort());
  expect([...got.mentioned].sort(), dir).toEqual([...want.mentioned].sort());
  return want.mentioned.size - want.linked.size;
}

describe('reachability', () => {
  it('gives the two walks’ sets on a vault of chained links and mentions', async () => {
    const dir = join(root, 'chain');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n- [a](a.md) — a\n- see `b.md`\n');
    writeFileSync(join(dir, 'a.md'), note('a', 'Links [[c]] and mentions `sub/d.md`; and [x](x.txt).'));
    writeFileSync(join(dir, 'b.md'), note('b', 'Only mentioned; links [[e]].'));
    writeFileSync(join(dir, 'c.md'), note('c', 'Back to [[a]], and `b.md` again.'));
    writeFileSync(join(dir, 'sub', 'd.md'), note('d', 'Links [[f]], mentions `g.md`.'));
    writeFileSync(join(dir, 'e.md'), note('e', 'Links [[g]].'));
    writeFileSync(join(dir, 'f.md'), note('f', 'A leaf.'));
    writeFileSync(join(dir, 'g.md'), note('g', 'Mentions `h.md`.'));
    writeFileSync(join(dir, 'h.md'), note('h', 'Links [[a]].'));
    writeFileSync(join(dir, 'lone.md'), note('lone', 'Nobody reaches me; I link [[a]].'));
    writeFileSync(join(dir, 'x.txt'), 'not markdown\n');
    // b, d, e, f, g, h are reached only through a mention somewhere up their chain.
    expect(await same(dir)).toBeGreaterThanOrEqual(6);
  });

  it('gives the two walks’ sets on the demo vault, a generated hard vault and the corpus', async () => {
    const hard = join(root, 'hard');
    (generateHardVault as (d: string, n: number) => void)(hard, 300);
    let extra = 0;
    for (const dir of ['fixtures/demo-vault', hard, ...(hasCorpus ? corpusVaults('claude') : [])])
      extra += await same(dir);
    expect(extra).toBeGreaterThan(0);
  }, 120_000);
});
