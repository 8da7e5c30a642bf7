// orphan: an index line only for a note that still holds (issue 11, the independent reader's labels in
// docs/proposal-precision.md): notes whose own text says they are finished, a hand-off, a working log,
// a verbatim dialogue, a temporary directive or an undecided idea are shown as info with why; so are a
// second note under an indexed note's name. The line is written the way the index writes its own.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import type { Action } from '../src/proposal/schema.js';
import { loadVault } from '../src/vault/load.js';

const ROOT = join(process.cwd(), 'fixtures', 'consolidate', 'orphans');

function orphans(name: string) {
  const vault = loadVault(join(ROOT, name, 'vault'), { config: DEFAULT_CONFIG });
  const p = consolidateVault(vault, { now: new Date('2026-11-30T12:00:00Z'), path: '' });
  return [...p.items, ...(p.info ?? [])].filter((i) => i.kind === 'orphan');
}
const added = (i: { action: Action }): string[] => (i.action.type === 'fix-index' ? i.action.add : []);

describe('orphan: which notes get an index line', () => {
  it('adds a line only for the standing rule; the others are info that says why', () => {
    const items = orphans('own-text-says-not-memory');
    const withLine = items.filter((i) => added(i).length > 0).map((i) => i.notes[0]!.path);
    expect(withLine).toEqual(['feedback_stop_when_told.md']);
    const why = new Map(items.map((i) => [i.notes[0]!.path, String(i.evidence.why ?? '')]));
    expect(why.get('task3_hooks_wired.md')).toMatch(/status says "DONE"/);
    expect(why.get('followup_queue.md')).toMatch(/every item .* marked done/);
    expect(why.get('project_sprint_state.md')).toMatch(/hand-off/);
    expect(why.get('project_dialogue.md')).toMatch(/verbatim dialogue/);
    expect(why.get('feedback_autonomous_loop.md')).toMatch(/until error-free dogfood ships/i);
    expect(why.get('notes/old-idea.md')).toMatch(/not yet decided/);
    expect(why.get('feedback_pnpm_again.md')).toMatch(/feedback_use_pnpm\.md.*same name/);
  });

  it("writes the line in the index's own style, with a description cut at a word, never bare", () => {
    const items = orphans('line-in-the-index-style');
    const lines = new Map(items.map((i) => [i.notes[0]!.path, added(i)[0]]));
    const scroll = lines.get('feedback_verify_scroll.md')!;
    expect(
      scroll.startsWith('- [feedback_verify_scroll.md](./feedback_verify_scroll.md) - A sidebar with overflow-y:auto'),
    ).toBe(true);
    expect(scroll).toMatch(/ \w+…$/);
    expect(scroll.length).toBeLessThan(200);
  });

  it('in a vault without front matter: a working log gets no line; a note gets its first prose line as description', () => {
    const items = orphans('no-front-matter');
    const lines = new Map(items.map((i) => [i.notes[0]!.path, added(i)[0]]));
    expect(lines.get('ct-scan-fix.md')).toBe(
      '- [ct-scan-fix.md](ct-scan-fix.md) — The CT viewer needs the two-phase AMF request: metadata first, then pixels.',
    );
    expect(lines.get('imaging-progress.md')).toBeUndefined();
    expect(String(items.find((i) => i.notes[0]!.path === 'imaging-progress.md')?.evidence.why)).toMatch(/working log/);
  });
});

describe('orphan: room in an index past its headroom but under both limits', () => {
  it('adds lines up to just below where a split would be proposed (98%), rules first', () => {
    const items = orphans('room-below-split').filter((i) => added(i).length > 0);
    const paths = items.map((i) => i.notes[0]!.path);
    // 185 lines now; a split is proposed from 196 (98% of 200): 10 lines fit.
    expect(paths).toHaveLength(10);
    for (let k = 1; k <= 6; k++) expect(paths).toContain(`z_feedback_${k}.md`);
  });
});
