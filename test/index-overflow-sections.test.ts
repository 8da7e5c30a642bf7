// index-overflow's choices, as the independent reader of issue 11 judged them (docs/proposal-precision.md):
// no split for an index under both limits; a moved subsection keeps its parent heading's name (the
// parent heading line stays in the index); link lists stay; titles end at a word; no `-2` names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import type { Action } from '../src/proposal/schema.js';
import { loadVault } from '../src/vault/load.js';

type Split = Extract<Action, { type: 'split-index' }>;
const ROOT = join(process.cwd(), 'fixtures', 'consolidate', 'index-overflow');

function overflowItems(name: string) {
  const vault = loadVault(join(ROOT, name, 'vault'), { config: DEFAULT_CONFIG });
  const p = consolidateVault(vault, { now: new Date('2026-11-30T12:00:00Z'), path: '' });
  return [...p.items, ...(p.info ?? [])].filter((i) => i.kind === 'index-overflow');
}

describe('index-overflow: sections a reader would approve moving', () => {
  it('proposes nothing for an index under both limits (past the warning headroom only)', () => {
    expect(overflowItems('under-limits-no-split')).toEqual([]);
  });

  it('says how far over the limits the index is', () => {
    const [item] = overflowItems('subsections-keep-parent');
    expect(item?.evidence).toMatchObject({ overLines: 19, overBytes: 0 });
    expect(String(item?.evidence.why)).toMatch(/19 lines over the 200-line limit/);
  });

  it('keeps parent headings and link lists in the index; moved subsections go to a note named after their parent', () => {
    const [item] = overflowItems('subsections-keep-parent');
    const a = item!.action as Split;
    const moved = a.moves.flatMap((m) => m.lines);
    // No `##` heading leaves the index while its `###` subsections stay behind it.
    expect(moved.filter((l) => /^## /.test(l))).toEqual([]);
    expect(moved.some((l) => l.includes('maintenance.md'))).toBe(false);
    expect(moved.some((l) => /NEVER|ALWAYS/.test(l))).toBe(false);
    // One note per parent heading, whose front matter names the parent.
    for (const m of a.moves.filter((x) => x.frontmatter)) expect(m.frontmatter).toMatch(/Strategy Development/);
    const notes = new Set(a.moves.map((m) => m.note));
    expect([...notes].every((n) => !/-\d\.md$/.test(n))).toBe(true);
    expect(notes.size).toBeLessThanOrEqual(2);
    for (const m of a.moves.filter((x) => x.pointer))
      expect(m.pointer).toMatch(/Strategy Development \(2026-02-\d\d\): /);
  });

  it('leaves no run of blank lines where adjacent subsections moved to one note', () => {
    const [item] = overflowItems('subsections-keep-parent');
    const a = item!.action as Split;
    const lines = readFileSync(join(ROOT, 'subsections-keep-parent', 'vault', 'MEMORY.md'), 'utf8').split('\n');
    const at = new Map(a.moves.map((m) => [m.from, m]));
    const out: string[] = [];
    for (let i = 1; i <= lines.length; i++) {
      const m = at.get(i);
      if (m) {
        if (m.pointer) out.push(m.pointer);
        i += m.lines.length - 1;
        continue;
      }
      out.push(lines[i - 1]!);
    }
    expect(out.join('\n')).not.toMatch(/\n\n\n/);
  });

  it('titles and names end at a whole word, keep underscores, and never take a -2 suffix', () => {
    const [item] = overflowItems('titles-whole-words');
    const a = item!.action as Split;
    for (const m of a.moves) {
      expect(m.note).not.toMatch(/-\d\.md$/);
      if (!m.pointer) continue;
      const title = /^- \[(.*?)\]\(/.exec(m.pointer)![1]!;
      expect(title).toMatch(/Session_2026-05-29 work on pantheon_deploy/);
      expect(title).toMatch(/(?:\w…|[a-z0-9)])$/);
      expect(title.replace(/…$/, '').split(' ').pop()).toMatch(
        /^(?:Session_2026-05-29|work|on|pantheon_deploy|guard|hooks|and|the|multisite|clobber|follow_up|part|\d|with|extra|words|here)$/,
      );
    }
  });
});
