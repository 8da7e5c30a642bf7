// The post-state gate compares error findings only, so it runs only the rules that can report one
// (issue 14: on the hard bench shape every trial ran index/lost-correction and the security warnings
// over the whole vault, ~1,200 trials for 300 notes). This proves both halves: the gate skips them, and
// a rule below error that is not marked `escalates` never reports an error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import { STAGES } from '../src/consolidate/stages/index.js';
import { withholdRefused } from '../src/apply/withhold.js';
import { runRules } from '../src/rules/engine.js';
import { RULES } from '../src/rules/index.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
// @ts-expect-error: a plain .mjs script without types
import { generateHardVault } from '../scripts/bench/generate.mjs';

const root = mkdtempSync(join(tmpdir(), 'memlint-gate-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('post-state gate: only rules that can report an error', () => {
  it('withholding on a hard-shape vault (9,000-line index, lost lines) never runs lost-correction', async () => {
    const dir = join(root, 'hard-40');
    (generateHardVault as (d: string, n: number) => void)(dir, 40);
    const vault = loadVault(dir, { config: (await loadConfig(dir, undefined, knownRuleIds)).config });
    const proposal = consolidateVault(vault, {
      stages: STAGES.filter((s) => s.id !== 'contradictions'),
      now: new Date('2026-01-01T00:00:00Z'),
    });
    // Two items are enough to make the gate judge post-images: a dead see-also line unlinked in place (its
    // words stay: accepted) and one changed to drop its line (its words are lost: refused after trials).
    const unlinks = proposal.items.filter((i) => i.kind === 'dangling-link' && i.action.type === 'fix-index');
    const [keep, drop] = unlinks as [(typeof unlinks)[number], (typeof unlinks)[number]];
    if (drop.action.type !== 'fix-index') throw new Error('expected a fix-index item');
    const r = drop.action.replace![0]!;
    const dropped = { ...drop, action: { ...drop.action, remove: [{ line: r.line, text: r.text }], replace: [] } };
    const two = { ...proposal, items: [keep, dropped] };
    startCounting();
    const out = withholdRefused(two, vault);
    const counts = stopCounting();
    // The gate did trials, and withheld only the item that loses a line's words ...
    expect(counts['apply.gateChecks'] ?? 0).toBeGreaterThan(2);
    expect(((out.summary?.withheld as { id: string }[] | undefined) ?? []).map((w) => w.id)).toEqual([dropped.id]);
    // ... and none of them ran the warning rule's conflict engine.
    expect(counts['index.lostCorrectionPairs'] ?? 0).toBe(0);
  }, 600_000);

  const vaults = [
    ...(hasCorpus ? [...corpusVaults('claude'), ...corpusVaults('hermes')] : []),
    resolve('fixtures/demo-vault'),
  ];
  it.each(vaults)(
    'no error from a rule below error without meta.escalates: %s',
    async (dir) => {
      const vault = loadVault(dir, { config: (await loadConfig(dir, undefined, knownRuleIds)).config });
      const lower = new Set(
        RULES.filter((r) => r.meta.severity !== 'error' && r.meta.escalates !== true).map((r) => r.id),
      );
      const wrong = runRules(vault, RULES).findings.filter(
        (f) => f.severity === 'error' && lower.has(f.ruleId) && vault.config.rules[f.ruleId] === undefined,
      );
      expect(wrong).toEqual([]);
    },
    120_000,
  );
});
