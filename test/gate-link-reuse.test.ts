// The post-state gate's post-images reuse the vault's resolved links for files a trial leaves unchanged
// while the trial keeps the vault's shape (src/apply/gate.ts `linkReuse`, src/vault/load.ts `LinkReuse`).
// Truth: the vault the changes would leave, written to disk and loaded fresh. Every file's links must be
// those, in a sequence of trials whose shapes repeat and change (index edits only; a note added; a note
// removed; a note's name changed; back to the first), as the gate's halving makes them.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    if (c.after) writeFileSync(join(dir, c.path), c.after.bytes);
    else rmSync(join(dir, c.path));
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
        // In the vault's own shape, the unchanged files' links come from the vault: only the new index's 5 links
        // (4 distinct keys: a.md twice) are resolved.
        if (i === 0) expect((snapshot()['link.resolve'] ?? 0) - before).toBe(4);
        expect(links(image), `trial ${i}`).toEqual(links(onDisk(base, t)));
      }
    } finally {
      stopCounting();
    }
  });
});
