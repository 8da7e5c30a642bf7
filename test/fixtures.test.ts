/**
 * One harness for every rule's fixtures: the findings of the rule under test must equal
 * expected.json, and every finding of every rule must satisfy the engine's invariants.
 * MEMLINT_UPDATE_FIXTURES=1 rewrites expected.json (review the diff before committing).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkVault } from '../src/check.js';
import { parseConfig } from '../src/config/parse.js';
import { RULE_IDS } from '../src/rules/index.js';
import { compareFindings } from '../src/rules/engine.js';
import { fixtureCases } from './helpers/fixtures.js';

const cases = fixtureCases();
const update = process.env.MEMLINT_UPDATE_FIXTURES === '1';

describe('rule fixtures', () => {
  it('has fixture cases', () => expect(cases.length).toBeGreaterThan(30));

  it.each(cases.map((c) => [`${c.ruleId} › ${c.name}`, c] as const))('%s', async (_label, c) => {
    const config = parseConfig(c.config, `${c.dir}/config.json`, RULE_IDS);
    const result = await checkVault(c.vault, { config });
    expect(result.crashed).toBe(false);
    const sorted = [...result.findings].sort(compareFindings);
    expect(result.findings).toEqual(sorted);
    for (const f of result.findings) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.column).toBeGreaterThanOrEqual(1);
      const file = result.vault.byPath.get(f.file);
      if (file && file.text) {
        expect(f.line).toBeLessThanOrEqual(file.lineCount() + 1);
      }
      expect(f.file).not.toMatch(/^\/|\\/);
    }
    const actual = result.findings
      .filter((f) => f.ruleId === c.ruleId)
      .map(({ file, line, column, severity, message }) => ({ file, line, column, severity, message }));
    if (update || !existsSync(c.expectedFile)) {
      if (!update) throw new Error(`no expected.json for ${c.dir}; run with MEMLINT_UPDATE_FIXTURES=1 and review it`);
      writeFileSync(c.expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    }
    expect(actual).toEqual(JSON.parse(readFileSync(c.expectedFile, 'utf8')));
  });
});
