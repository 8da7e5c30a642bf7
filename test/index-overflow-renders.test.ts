// index-overflow renders its moves once per section moved (O(sections) each). A group's first move (its pointer line
// and front matter name the group's sections) was made again in every render for every group, though only the group
// the last section joined changed: quadratic in the groups. Each group's first move is now made again only when the
// group gains a section: at most one per render. Counted, not timed; the item is what it was (fixtures and
// same-output keep it byte for byte).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { planSplit } from '../src/consolidate/stages/index-overflow.js';
import type { Action } from '../src/proposal/schema.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';
import { tempDir } from './helpers/run.js';

const root = tempDir();
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('index-overflow renders', () => {
  it('makes a group’s first move again only when the group gains a section (sections too large split into groups)', () => {
    const dir = join(root, 'v');
    mkdirSync(dir, { recursive: true });
    // Twelve sections of 90 lines without blank lines or sub-headings: each too large to move whole, so each is cut
    // into chunks that go to a note named after it (one group per section).
    const lines = ['# Memory', ''];
    for (let s = 0; s < 12; s++) {
      lines.push(`## Topic ${s} notes`);
      for (let k = 0; k < 90; k++) lines.push(`- fact ${s}-${k}: the build of part ${k} uses pnpm in area ${s}`);
      lines.push('');
    }
    writeFileSync(join(dir, 'MEMORY.md'), `${lines.join('\n')}\n`);
    const vault = loadVault(dir, { config: DEFAULT_CONFIG });
    startCounting();
    const { items } = planSplit(vault);
    const counts = stopCounting();
    const action = items[0]!.action as Extract<Action, { type: 'split-index' }>;
    const groups = new Set(action.moves.map((m) => m.note));
    expect(groups.size).toBeGreaterThan(5);
    const renders = counts['consolidate.indexRenders'] ?? 0;
    expect(renders).toBeGreaterThan(20);
    expect(counts['consolidate.indexGroupMoves'] ?? 0).toBeGreaterThan(0);
    expect(counts['consolidate.indexGroupMoves']).toBeLessThanOrEqual(renders);
  });
});
