/**
 * An index write's link changes (src/guard/index-target.ts `linkDiff`) and the notes it leaves unreachable
 * (`LinkGraph.lostNotes`, on a graph built now and on the stored one) give what their definitions give:
 * `added`/`removed` as a map of every link of each text would, and `reach(before)` minus `reach(after)`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { graphSession } from '../src/guard/graph-cache.js';
import { linkDiff, type Pair } from '../src/guard/index-target.js';
import { linkGraph, type LinkGraph } from '../src/guard/link-graph.js';
import { noteSignatures } from '../src/guard/signatures.js';
import { discover } from '../src/vault/discover.js';
import { tempDir } from './helpers/run.js';
import { seeded } from './helpers/seeded.js';

/** The definition: every distinct link of each text in a map. */
function byMaps(old: readonly string[], next: readonly string[]): { added: Pair[]; removed: boolean } {
  const map = (flat: readonly string[]): Map<string, Pair> => {
    const m = new Map<string, Pair>();
    for (let k = 0; k + 1 < flat.length; k += 2)
      if (!m.has(`${flat[k]}:${flat[k + 1]}`))
        m.set(`${flat[k]}:${flat[k + 1]}`, { kind: flat[k]!, target: flat[k + 1]! });
    return m;
  };
  const a = map(old),
    b = map(next);
  return { added: [...b].filter(([k]) => !a.has(k)).map(([, v]) => v), removed: [...a].some(([k]) => !b.has(k)) };
}

describe('linkDiff', () => {
  it('equals the map definition on random edits of random link lists (few and many changed pairs)', () => {
    const rnd = seeded(14);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const kinds = ['markdown', 'wikilink'];
    const targets = Array.from({ length: 40 }, (_, i) => `note-${i}.md`);
    const pair = (): string[] => [pick(kinds), pick(targets)];
    let splitOnes = 0;
    for (let round = 0; round < 600; round++) {
      const old = Array.from({ length: Math.floor(rnd() * 60) }, pair).flat();
      const next = [...old];
      // 0–3 edits, or a long run of changes (past the scan's few pairs), at the start, the end or anywhere.
      const edits = round % 10 === 0 ? 40 : Math.floor(rnd() * 4);
      for (let e = 0; e < edits; e++) {
        const at = 2 * Math.floor(rnd() * (next.length / 2 + 1));
        const r = rnd();
        if (r < 0.4 && next.length) next.splice(Math.min(at, next.length - 2), 2);
        else if (r < 0.8) next.splice(at, 0, ...pair());
        else if (next.length) next.splice(Math.min(at, next.length - 2), 2, ...pair());
      }
      const got = linkDiff(old, next);
      expect({ added: got.added, removed: got.removed }).toEqual(byMaps(old, next));
      expect(got.head).toBeLessThanOrEqual(Math.min(old.length, next.length) - got.tail);
      if (got.head > 0 && got.tail > 0) splitOnes++;
    }
    expect(splitOnes).toBeGreaterThan(100); // the head-and-tail path was taken, not only the whole lists
  });

  it('handles empty lists and lists that are a prefix of one another', () => {
    const a = ['markdown', 'a.md', 'wikilink', 'b'];
    expect(linkDiff([], [])).toMatchObject({ added: [], removed: false });
    expect(linkDiff([], a)).toMatchObject({
      added: [
        { kind: 'markdown', target: 'a.md' },
        { kind: 'wikilink', target: 'b' },
      ],
      removed: false,
    });
    expect(linkDiff(a, [])).toMatchObject({ added: [], removed: true });
    expect(linkDiff(a, [...a, ...a.slice(0, 2)])).toMatchObject({ added: [], removed: false });
    expect(linkDiff([...a, ...a.slice(0, 2)], a)).toMatchObject({ added: [], removed: false });
    expect(linkDiff(a, ['markdown', 'a.md', 'markdown', 'b'])).toMatchObject({
      added: [{ kind: 'markdown', target: 'b' }],
      removed: true,
    });
  });
});

/** 40 notes with random wikilinks to notes, to missing notes and to a non-note file. */
function randomVault(seed: number): string {
  const rnd = seeded(seed);
  const dir = tempDir();
  writeFileSync(join(dir, 'picture.png'), 'png');
  for (let i = 0; i < 40; i++) {
    const links = Array.from({ length: Math.floor(rnd() * 3) }, () => {
      const r = rnd();
      return r < 0.1 ? '![p](picture.png)' : r < 0.2 ? `[[missing-${i}]]` : `[[note-${Math.floor(rnd() * 40)}]]`;
    });
    writeFileSync(
      join(dir, `note-${i}.md`),
      `---\nname: note ${i}\ndescription: fact ${i}\ntype: project\n---\n\nFact ${i}. ${links.join(' ')}\n`,
    );
  }
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
  return dir;
}

describe('LinkGraph.lostNotes', () => {
  it('is reach(before) minus reach(after), notes only, sorted: built now and stored', async () => {
    const dir = randomVault(7);
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    const found = discover(dir);
    const build = (): { sigs: ReturnType<typeof noteSignatures>; graph: LinkGraph } => {
      const sigs = noteSignatures(dir, config, found, { cache: 'read-write' });
      return { sigs, graph: linkGraph(dir, config, found, sigs) };
    };
    // The third session reads the graph stored by the second (the first wrote the signature cache).
    for (let k = 0; k < 2; k++) {
      const s = graphSession(dir, config, found, 'read-write', build);
      s.graph();
      s.save();
    }
    const stored = graphSession(dir, config, found, 'read-write', () => {
      throw new Error('the stored graph was not used');
    });
    const graphs = { built: build().graph, stored: stored.graph() };
    const rnd = seeded(3);
    const paths = [...Array.from({ length: 40 }, (_, i) => `note-${i}.md`), 'picture.png', 'nowhere.md'];
    const starts = (): string[] => paths.filter(() => rnd() < 0.08);
    let nonEmpty = 0;
    for (let round = 0; round < 200; round++) {
      const before = starts();
      const after = rnd() < 0.5 ? before.filter(() => rnd() < 0.7) : starts();
      for (const g of Object.values(graphs)) {
        const kept = g.reach(after);
        const want = [...g.reach(before)].filter((p) => g.isNote(p) && !kept.has(p)).sort();
        expect(g.lostNotes(before, after)).toEqual(want);
        if (want.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });
});
