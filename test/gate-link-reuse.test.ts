// The post-state gate's post-images reuse the vault's resolved links for files a trial leaves unchanged
// (src/vault/load.ts `LinkBase`): all of them while the trial keeps the vault's shape; when it adds, removes or
// renames notes, those whose links name none of them (resolve.ts `targetKeys`), missing links re-asked for did-you-mean.
// Truth: the vault the changes would leave, written to disk and loaded fresh. Every file's links must be
// those, in a sequence of trials whose shapes repeat and change (index edits only; a note added; a note
// removed; a note's name changed; back to the first), as the gate's halving makes them.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postImage } from '../src/apply/gate.js';
import type { FileChange } from '../src/apply/compose.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { snapshot, startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';
import type { Vault } from '../src/vault/model.js';
import { tempDir } from './helpers/run.js';

const enc = new TextEncoder();
const links = (v: Vault): unknown =>
  v.files.map((f) => [
    f.path,
    f.links.map((l) => [l.kind, l.target, l.line, l.column, l.resolved, l.resolution, l.suggestion]),
  ]);

function onDisk(base: string, changes: readonly FileChange[]): Vault {
  const dir = tempDir();
  cpSync(base, dir, { recursive: true });
  for (const c of changes) {
    if (c.after) {
      mkdirSync(join(dir, c.path, '..'), { recursive: true });
      writeFileSync(join(dir, c.path), c.after.bytes);
    } else rmSync(join(dir, c.path));
  }
  return loadVault(dir, { config: DEFAULT_CONFIG });
}

describe('gate post-images reuse resolved links', () => {
  it('give every file the links a fresh load of the changed vault gives, across trials of repeating shapes', () => {
    const base = tempDir();
    const fm = (name: string): string => `---\nname: ${name}\ndescription: d\ntype: user\n---\n`;
    writeFileSync(join(base, 'MEMORY.md'), '# Memory\n\n- [A](a.md) — a\n- [B](b.md) — b\n- [[c]]\n');
    writeFileSync(
      join(base, 'a.md'),
      `${fm('a')}See [[b]], [[bee]], [[added]], [[renamed-by-test]] and \`b.md\`, [c](c.md).\n`,
    );
    writeFileSync(join(base, 'b.md'), `${fm('bee')}Back to [[a]] and [[added]].\n`);
    writeFileSync(join(base, 'c.md'), `${fm('c')}Nothing here.\n`);
    const vault = loadVault(base, { config: DEFAULT_CONFIG });
    const index = readFileSync(join(base, 'MEMORY.md'), 'utf8');
    const change = (path: string, text: string | null): FileChange => ({
      path,
      before: null,
      after: text === null ? null : { bytes: enc.encode(text), mode: 0o644 },
      item: 'test',
    });
    const edited = change('MEMORY.md', `${index}- [Again](a.md) — again\n- [Gone](nothing.md)\n`);
    const trials: FileChange[][] = [
      [edited], // the vault's shape: only the index's links are resolved
      [change('added.md', `${fm('added')}See [[a]].\n`)], // a's and b's [[added]] now resolve
      [change('b.md', null)], // a's [[b]], [[bee]] and `b.md` now miss
      [change('c.md', `${fm('renamed-by-test')}Nothing here.\n`)], // a's [[renamed-by-test]] resolves by name
      [edited],
      [],
      [change('b.md', null), edited],
      [change('added.md', `${fm('added')}See [[a]].\n`)],
    ];
    startCounting();
    try {
      for (const [i, t] of trials.entries()) {
        const before = snapshot()['link.resolve'] ?? 0;
        const image = postImage(vault, t);
        // In the vault's own shape, the unchanged files' links come from the vault, and the new index's 5 links
        // (4 distinct keys: a.md twice) are asked of the vault's own resolver, which knew all but nothing.md.
        if (i === 0) expect((snapshot()['link.resolve'] ?? 0) - before).toBe(1);
        expect(links(image), `trial ${i}`).toEqual(links(onDisk(base, t)));
      }
    } finally {
      stopCounting();
    }
  });

  it('give the links a fresh load gives when trials add, remove and rename notes whose names collide, folded', () => {
    // A seeded generator: notes in folders, stems and names that fold alike, links of every kind naming them
    // (wikilinks by stem, name, path and folded spelling; markdown links relative, escaped, with fragments;
    // mentions), some missing; each trial removes, adds and renames a few notes (and sometimes edits the index).
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n); // the high bits: an LCG's low bits cycle
    };
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const stems = ['alpha', 'Alpha_Beta', 'alpha-beta', 'gamma', 'delta note', 'delta-note', 'eps', 'zeta'];
    const folders = ['', 'sub/', 'sub/deep/'];
    const fm = (name: string): string => `---\nname: ${name}\ndescription: d\ntype: user\n---\n`;
    const linkTo = (stem: string, folder: string): string =>
      pick([
        `[[${stem}]]`,
        `[[${folder}${stem}]]`,
        `[[${stem}.md]]`,
        `[[${stem.toUpperCase()}]]`,
        `[[${stem}x]]`,
        `[l](${encodeURI(stem)}.md)`,
        `[l](${folder}${stem}.md#part)`,
        `[l](../${stem}.md)`,
        `[l](./${stem}.md?x=1)`,
        `\`${stem}.md\``,
        `\`${folder}${stem}.md\``,
        `[[name-${stem}]]`,
      ]);
    const body = (n = 1): string =>
      Array.from({ length: n }, () => linkTo(pick(stems), pick(folders))).join(' and ') + '.\n';
    const base = tempDir();
    const files = new Map<string, string>();
    files.set('MEMORY.md', `# Memory\n\n${Array.from({ length: 8 }, () => `- ${body(3)}`).join('')}`);
    for (const stem of stems)
      for (const folder of folders)
        if (rnd(3) > 0) files.set(`${folder}${stem}.md`, `${fm(rnd(2) ? `name-${pick(stems)}` : stem)}${body()}`);
    // Notes of one link each: reused unless that link names a changed note.
    for (let i = 0; i < 60; i++) files.set(`${pick(folders)}linker-${i}.md`, `${fm(`linker-${i}`)}${body()}`);
    // Notes of a stem and a name of their own, linked by name and misspelled (did-you-mean names the stem).
    for (let i = 0; i < 6; i++) {
      files.set(`solo-${i}.md`, `${fm(`solo-name-${i}`)}Alone.\n`);
      files.set(`linker-solo-${i}.md`, `${fm(`linker solo ${i}`)}See [[solo-name-${i}]].\n`);
      files.set(`linker-solo-${i}x.md`, `${fm(`linker solo ${i}x`)}See [[solo-${i}x]].\n`);
    }
    // And one wikilink by path (`[[sub/alpha]]`: the file `sub/alpha.md`, not a stem) to each note in a folder.
    for (const path of [...files.keys()].filter((p) => p.includes('/') && !p.includes('linker-')))
      files.set(`linker-${path.replace(/\W/g, '-')}.md`, `${fm(`linker ${path}`)}See [[${path.slice(0, -3)}]].\n`);
    for (const [path, text] of files) {
      mkdirSync(join(base, path, '..'), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    const vault = loadVault(base, { config: DEFAULT_CONFIG });
    const notes = [...files.keys()].filter((p) => p !== 'MEMORY.md' && !p.includes('linker-'));
    const change = (path: string, text: string | null): FileChange => ({
      path,
      before: null,
      after: text === null ? null : { bytes: enc.encode(text), mode: 0o644 },
      item: 'test',
    });
    let reused = 0;
    startCounting();
    try {
      for (let trial = 0; trial < 24; trial++) {
        const changes = new Map<string, FileChange>();
        for (let k = rnd(3); k >= 0; k--) {
          const what = rnd(4);
          if (what === 0) {
            const path = pick(notes);
            changes.set(path, change(path, null));
          } else if (what === 1) {
            const path = `${pick(folders)}${pick(stems)}${rnd(2) ? '' : '2'}.md`;
            changes.set(path, change(path, `${fm(rnd(2) ? `name-${pick(stems)}` : pick(stems))}${body()}`));
          } else if (what === 2) {
            const path = pick(notes);
            changes.set(
              path,
              change(path, `${fm(`name-${pick(stems)}`)}${files.get(path)!.replace(/^---[^]*?---\n/, '')}`),
            );
          } else changes.set('MEMORY.md', change('MEMORY.md', `${files.get('MEMORY.md')!}- ${body()}`));
        }
        const list = [...changes.values()];
        const before = snapshot()['link.filesReused'] ?? 0;
        expect(links(postImage(vault, list)), `trial ${trial}`).toEqual(links(onDisk(base, list)));
        reused += (snapshot()['link.filesReused'] ?? 0) - before;
      }
    } finally {
      stopCounting();
    }
    // Not a vacuous pass: files were reused across changed shapes.
    expect(reused).toBeGreaterThan(24 * 30);
  });

  it('reuse the links of a file a trial writes when a later trial writes the same bytes and differs alike', () => {
    const base = tempDir();
    const fm = (name: string): string => `---\nname: ${name}\ndescription: d\ntype: user\n---\n`;
    writeFileSync(join(base, 'MEMORY.md'), '# Memory\n\n- [A](a.md) — a\n- [C](c.md) — c\n');
    writeFileSync(join(base, 'a.md'), `${fm('a')}See [[c]].\n`);
    writeFileSync(join(base, 'c.md'), `${fm('c')}Back to [[a]].\n`);
    const vault = loadVault(base, { config: DEFAULT_CONFIG });
    // The same bytes object in two trials, as apply/compose.ts plans a file an item writes (one text, one bytes).
    const fresh: FileChange = {
      path: 'fresh.md',
      before: null,
      after: { bytes: enc.encode(`${fm('fresh')}See [[a]], [[c]], [[nowhere]] and [x](sub/x.md).\n`), mode: 0o644 },
      item: 'test',
    };
    const gone: FileChange = { path: 'c.md', before: null, after: null, item: 'test' };
    const resolves = (t: FileChange[]): number => {
      const before = snapshot()['link.resolve'] ?? 0;
      const image = postImage(vault, t);
      const n = (snapshot()['link.resolve'] ?? 0) - before;
      expect(links(image)).toEqual(links(onDisk(base, t)));
      return n;
    };
    startCounting();
    try {
      // fresh.md's 4 links name no file the trial adds (fresh.md): asked of the vault's resolver, which resolved
      // [[a]] and [[c]] for the vault's own notes, and so resolves [[nowhere]] and sub/x.md alone.
      expect(resolves([fresh])).toBe(2);
      expect(resolves([gone])).toBeGreaterThan(0);
      expect(resolves([fresh])).toBe(0); // fresh.md's links, as the first trial resolved them
      expect(resolves([fresh, gone])).toBeGreaterThan(0); // another vault: resolved again
    } finally {
      stopCounting();
    }
  });
});
