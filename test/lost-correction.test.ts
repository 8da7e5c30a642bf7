// index/lost-correction: a line past the index's cut that contradicts a loaded line. Its findings
// depend on the index alone, so `check --cache` reuses them while the index's bytes are unchanged
// (the conflict engine is not run again: counted, not timed).
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVault } from '../src/check.js';
import type { Finding } from '../src/rules/types.js';
import { snapshot as lastCounts, startCounting, stopCounting } from '../src/util/counters.js';
import { tempDir } from './helpers/run.js';

function vault(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'api.md'),
    '---\nname: api\ndescription: the API server\ntype: project\n---\nThe API server.\n',
  );
  const lines = ['# Memory', '', '- [API](api.md) — The API server port is 3000'];
  // Filler lines share no word with each other or with the API lines: nothing to compare them with.
  const word = (i: number): string =>
    `q${[...i.toString(26)].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('')}z`;
  for (let i = 0; i < 220; i++) lines.push(`- ${word(i)} ${word(i + 5000)}`);
  lines.push('- The API server port is 8080');
  writeFileSync(join(dir, 'MEMORY.md'), lines.join('\n') + '\n');
  return dir;
}

async function lost(dir: string, cache: boolean): Promise<{ findings: Finding[]; pairs: number }> {
  startCounting();
  let findings: Finding[];
  try {
    findings = (await checkVault(dir, cache ? { cache: { racyMarginMs: 0 } } : {})).findings.filter(
      (f) => f.ruleId === 'index/lost-correction',
    );
  } finally {
    stopCounting();
  }
  return { findings, pairs: lastCounts()['index.lostCorrectionPairs'] ?? 0 };
}

describe('index/lost-correction', () => {
  it('finds a correction past the cut, and --cache reuses it without running the engine again', async () => {
    const dir = vault();
    const cold = await lost(dir, false);
    expect(cold.findings.map((f) => [f.line, f.related?.[0]?.line])).toEqual([[224, 3]]);
    expect(cold.pairs).toBeGreaterThan(0);
    const first = await lost(dir, true);
    expect(first.findings).toEqual(cold.findings);
    const warm = await lost(dir, true);
    expect(warm.findings).toEqual(cold.findings);
    expect(warm.pairs).toBe(0);
    // The index changes: computed again.
    appendFileSync(join(dir, 'MEMORY.md'), '- one more line\n');
    const edited = await lost(dir, true);
    expect(edited.findings.map((f) => f.line)).toEqual([224]);
    expect(edited.pairs).toBeGreaterThan(0);
  });
});
