// The gate's lost-index-text check (src/apply/gate.ts `lostIndexText`) looks a removed index line's text up in one
// word index of the vault's own files, shared by every post-image of the vault, with the files a post-image
// changed or deleted left out and the files it wrote indexed on their own. Trials on one vault, in an order that
// makes a later trial meet lines an earlier one indexed, three times over (the index reads every line for its first
// look-ups, then makes a word index): each must say what a look at its own post-image says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lostIndexText, postImage } from '../src/apply/gate.js';
import type { FileChange } from '../src/apply/compose.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { loadVault } from '../src/vault/load.js';
import { tempDir } from './helpers/run.js';

const enc = new TextEncoder();
const fm = (name: string): string => `---\nname: ${name}\ndescription: d\ntype: user\n---\n`;

describe('lostIndexText across the trials of one vault', () => {
  it('finds a removed line only in files the post-image has, as it has them', () => {
    const base = tempDir();
    const index = [
      '# Memory',
      '',
      '- the deploy script needs the staging token first',
      '- keep two spare keys',
      '- xyzzy',
      '',
    ].join('\n');
    writeFileSync(join(base, 'MEMORY.md'), index);
    writeFileSync(join(base, 'a.md'), `${fm('a')}Note: the deploy script needs the staging token first.\n`);
    writeFileSync(join(base, 'b.md'), `${fm('b')}- keep two spare keys\n`);
    writeFileSync(join(base, 'c.md'), `${fm('c')}xyzzy\n`);
    const vault = loadVault(base, { config: DEFAULT_CONFIG });
    const own = (path: string): FileChange['before'] => ({ bytes: vault.byPath.get(path)!.bytes, mode: 0o644 });
    const change = (path: string, text: string | null): FileChange => ({
      path,
      before: vault.byPath.has(path) ? own(path) : null,
      after: text === null ? null : { bytes: enc.encode(text), mode: 0o644 },
      item: 'test',
    });
    // The index without its lines 3, 4 and 5.
    const cut = change('MEMORY.md', '# Memory\n\n');
    const lost = (changes: FileChange[]): number[] =>
      lostIndexText(vault, postImage(vault, changes), changes).map((l) => l.line);
    const trials: [string, FileChange[], number[]][] = [
      ['every line still in a note', [cut], []],
      ['a edited: its line is gone', [cut, change('a.md', `${fm('a')}Nothing.\n`)], [3]],
      ['b deleted: its line is gone', [cut, change('b.md', null)], [4]],
      ['c edited (a line of no interior word)', [cut, change('c.md', `${fm('c')}fine\n`)], [5]],
      [
        'a edited, its text in a new note',
        [
          cut,
          change('a.md', `${fm('a')}Nothing.\n`),
          change('d.md', `${fm('d')}the deploy script needs the staging token first\n`),
        ],
        [],
      ],
      [
        'b and c moved to a new note',
        [cut, change('b.md', null), change('c.md', null), change('e.md', 'keep two spare keys\nxyzzy\n')],
        [],
      ],
      ['all three notes gone', [cut, change('a.md', null), change('b.md', null), change('c.md', null)], [3, 4, 5]],
      ['as first', [cut], []],
    ];
    // Three rounds: the vault's index answers its first look-ups by reading every line, later ones by its words.
    for (let round = 1; round <= 3; round++)
      for (const [name, changes, expected] of trials)
        expect(lost(changes), `${name} (round ${round})`).toEqual(expected);
  });
});
