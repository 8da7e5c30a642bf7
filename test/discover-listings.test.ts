/**
 * Discovery with folder listings from an earlier run (what guard keeps) must find exactly what a
 * fresh walk finds, after any sequence of adds, removals, renames, new folders, symbolic links in
 * and out of the vault, and edits in place. Property-based (fast-check).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discover, type FolderListing } from '../src/vault/discover.js';
import {
  cachedDiscovery,
  DISCOVERY_FILE,
  FOLDERS_FILE,
  readDiscovery,
  readFolderListings,
  writeFolderListings,
} from '../src/guard/folders.js';
import { guardDraft } from '../src/guard/guard.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { tempDir } from './helpers/run.js';
import { propertyRuns } from './helpers/ci.js';

const MARGIN = 25;
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};
const RUNS = propertyRuns(200);

const FOLDERS = ['', 'a', 'a/b', 'c', '.hidden', 'node_modules'];
type Op =
  | { kind: 'write'; folder: number; name: number }
  | { kind: 'remove'; folder: number; name: number }
  | { kind: 'rename'; folder: number; name: number; to: number }
  | { kind: 'mkdir'; folder: number }
  | { kind: 'rmdir'; folder: number }
  | { kind: 'link-in'; folder: number; name: number }
  | { kind: 'link-out'; folder: number; name: number }
  | { kind: 'wait' };

const folder = fc.nat({ max: FOLDERS.length - 1 });
const name = fc.nat({ max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), folder, name }) },
  fc.record({ kind: fc.constant('remove' as const), folder, name }),
  fc.record({ kind: fc.constant('rename' as const), folder, name, to: folder }),
  fc.record({ kind: fc.constant('mkdir' as const), folder }),
  fc.record({ kind: fc.constant('rmdir' as const), folder }),
  fc.record({ kind: fc.constant('link-in' as const), folder, name }),
  fc.record({ kind: fc.constant('link-out' as const), folder, name }),
  { weight: 2, arbitrary: fc.constant({ kind: 'wait' as const }) },
);

function apply(root: string, outside: string, o: Op): void {
  const dir = (f: number): string => join(root, FOLDERS[f]!);
  const file = (f: number, n: number): string => join(dir(f), n === 4 ? `other-${n}.txt` : `note-${n}.md`);
  const ensure = (f: number): void => {
    mkdirSync(dir(f), { recursive: true });
  };
  try {
    switch (o.kind) {
      case 'write':
        ensure(o.folder);
        writeFileSync(file(o.folder, o.name), `# note ${Date.now()}\n`);
        break;
      case 'remove':
        rmSync(file(o.folder, o.name), { force: true });
        break;
      case 'rename':
        if (existsSync(file(o.folder, o.name))) {
          ensure(o.to);
          renameSync(file(o.folder, o.name), file(o.to, o.name));
        }
        break;
      case 'mkdir':
        ensure(o.folder);
        break;
      case 'rmdir':
        if (FOLDERS[o.folder] !== '') rmSync(dir(o.folder), { recursive: true, force: true });
        break;
      case 'link-in':
        ensure(o.folder);
        if (existsSync(file(0, 0)) && !existsSync(file(o.folder, o.name)))
          symlinkSync(file(0, 0), file(o.folder, o.name));
        break;
      case 'link-out':
        ensure(o.folder);
        if (!existsSync(file(o.folder, o.name))) symlinkSync(outside, file(o.folder, o.name));
        break;
      case 'wait':
        sleep(MARGIN + 15);
        break;
    }
  } catch {
    /* an op that cannot apply (a file where a folder is wanted) is skipped */
  }
}

/** A vault of one note and two empty folders, with a file outside it for links that leave. */
function startVault(): { base: string; root: string; outside: string } {
  const base = tempDir();
  const root = join(base, 'vault');
  const outside = join(base, 'outside.md');
  writeFileSync(outside, 'secret\n');
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  writeFileSync(join(root, 'note-0.md'), 'first\n');
  return { base, root, outside };
}

describe('discovery with folder listings', () => {
  it(`finds what a fresh walk finds (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
        const { base, root, outside } = startVault();
        let listings: Map<string, FolderListing> | undefined;
        for (const o of ops) {
          apply(root, outside, o);
          const record = new Map<string, FolderListing>();
          const cached = discover(root, { ...(listings ? { listings } : {}), record, racyMarginMs: MARGIN });
          expect(cached).toEqual(discover(root));
          listings = record;
        }
        rmSync(base, { recursive: true, force: true });
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it(`guard's stored discovery gives what a fresh walk finds (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
        const { base, root, outside } = startVault();
        for (const o of ops) {
          apply(root, outside, o);
          // Twice: the first call may store the walk, the second may answer from what it stored.
          expect(cachedDiscovery(root, true, MARGIN)).toEqual(discover(root));
          expect(cachedDiscovery(root, true, MARGIN)).toEqual(discover(root));
        }
        rmSync(base, { recursive: true, force: true });
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it('answers from the stored discovery only while no folder it read has changed', () => {
    const root = join(tempDir(), 'vault');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    for (const f of ['x.md', 'a/y.md', 'a/b/z.md', 'a/b/w.txt']) writeFileSync(join(root, f), 'n\n');
    // The first call makes .memlint/ (a change to the root folder): the walk it stored is out of date at once.
    cachedDiscovery(root, true, MARGIN);
    expect(readDiscovery(root)).toBeUndefined();
    sleep(MARGIN + 15);
    cachedDiscovery(root, true, MARGIN);
    const stored = readDiscovery(root);
    expect(stored).toEqual(discover(root));
    expect(stored?.markdown.map((m) => m.path)).toEqual(['a/b/z.md', 'a/y.md', 'x.md']);
    // An edit in place leaves every folder as it was: still the stored answer (guard compares each note's own stat).
    writeFileSync(join(root, 'a', 'y.md'), 'edited\n');
    expect(readDiscovery(root)).toEqual(stored);
    // A new file in the deepest folder moves its times: no stored answer until a walk stores the new one.
    writeFileSync(join(root, 'a', 'b', 'new.md'), 'n\n');
    expect(readDiscovery(root)).toBeUndefined();
    expect(cachedDiscovery(root, true, MARGIN).markdown.map((m) => m.path)).toContain('a/b/new.md');
    // Too new to trust: not stored, and the old one no longer matches.
    expect(readDiscovery(root)).toBeUndefined();
    sleep(MARGIN + 15);
    cachedDiscovery(root, true, MARGIN);
    expect(readDiscovery(root)?.markdown.map((m) => m.path)).toContain('a/b/new.md');
    // A walk that met a symbolic link is never stored (its target can change while its folder does not).
    symlinkSync(join(root, 'x.md'), join(root, 'a', 'link.md'));
    sleep(MARGIN + 15);
    expect(cachedDiscovery(root, true, MARGIN)).toEqual(discover(root));
    expect(readDiscovery(root)).toBeUndefined();
    // Another root string (the vault moved, or reached another way) and a damaged file: not used.
    rmSync(join(root, 'a', 'link.md'));
    sleep(MARGIN + 15);
    cachedDiscovery(root, true, MARGIN);
    expect(readDiscovery(root)).toBeDefined();
    expect(readDiscovery(`${root}/`)).toBeUndefined();
    // A file that names a path no walk yields (out of the vault, hidden, in an unlisted folder) is not used.
    const good = readFileSync(join(root, DISCOVERY_FILE), 'utf8');
    const crafted = (edit: (d: { markdown: string; folders: (string | number)[] }) => void): void => {
      const d = JSON.parse(good) as { markdown: string; folders: (string | number)[] };
      edit(d);
      writeFileSync(join(root, DISCOVERY_FILE), JSON.stringify(d));
    };
    for (const bad of ['../outside.md', 'a/../../outside.md', '.memlint/x.md', 'a//y.md', 'zzz/y.md', '/etc/x.md']) {
      crafted((d) => (d.markdown = `${d.markdown}\0${bad}`));
      expect(readDiscovery(root), bad).toBeUndefined();
    }
    crafted((d) => d.folders.push('..', 0, 0));
    expect(readDiscovery(root)).toBeUndefined();
    writeFileSync(join(root, DISCOVERY_FILE), good);
    expect(readDiscovery(root)).toBeDefined();
    writeFileSync(join(root, DISCOVERY_FILE), '{not json');
    expect(readDiscovery(root)).toBeUndefined();
    expect(cachedDiscovery(root, false, MARGIN)).toEqual(discover(root));
    expect(readFileSync(join(root, DISCOVERY_FILE), 'utf8')).toBe('{not json');
  });

  it('answers from the stored discovery of a vault with no file but notes', () => {
    const root = join(tempDir(), 'vault');
    mkdirSync(join(root, '.memlint', 'cache'), { recursive: true });
    writeFileSync(join(root, 'x.md'), 'n\n');
    sleep(MARGIN + 15);
    cachedDiscovery(root, true, MARGIN);
    expect(readDiscovery(root)).toEqual(discover(root));
  });

  it('does not record a folder changed within the margin before the walk (racy clean)', () => {
    const root = join(tempDir(), 'vault');
    mkdirSync(join(root, 'topic'), { recursive: true });
    writeFileSync(join(root, 'topic', 'a.md'), 'a\n');
    const fresh = new Map<string, FolderListing>();
    discover(root, { record: fresh });
    expect(fresh.has('topic')).toBe(false);
    sleep(MARGIN + 15);
    const aged = new Map<string, FolderListing>();
    discover(root, { record: aged, racyMarginMs: MARGIN });
    expect(aged.get('topic')?.entries).toEqual(['a.md', 'f']);
  });

  it('survive the round trip through the cache file, and a damaged file is ignored', () => {
    const root = join(tempDir(), 'vault');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    for (const f of ['x.md', 'a/y.md', 'a/b/z.txt', 'a/name with\nnewline.md']) writeFileSync(join(root, f), 'n\n');
    symlinkSync(join(root, 'x.md'), join(root, 'a', 'link.md'));
    sleep(MARGIN + 15);
    const record = new Map<string, FolderListing>();
    discover(root, { record, racyMarginMs: MARGIN });
    expect(record.size).toBe(3);
    writeFolderListings(root, record, undefined);
    expect(readFolderListings(root)).toEqual(record);
    writeFileSync(
      join(root, FOLDERS_FILE),
      readFileSync(join(root, FOLDERS_FILE), 'utf8').replace(/"[fdlo]+"/, '"fz"'),
    );
    expect(readFolderListings(root)).toBeUndefined();
    writeFileSync(join(root, FOLDERS_FILE), '{not json');
    expect(readFolderListings(root)).toBeUndefined();
  });

  it('guard sees a note added to a folder it has listed before', () => {
    const root = join(tempDir(), 'vault');
    mkdirSync(join(root, 'topic'), { recursive: true });
    writeFileSync(join(root, 'MEMORY.md'), '- [a](topic/a.md)\n');
    writeFileSync(
      join(root, 'topic', 'a.md'),
      '---\nname: a\ndescription: d\ntype: user\n---\nDeploy with the blue pipeline every Friday after the tests pass.\n',
    );
    const draft =
      '---\nname: b\ndescription: d\ntype: user\n---\nAlways run the database migrations by hand before the weekly deploy, never from CI.\n';
    expect(guardDraft(root, DEFAULT_CONFIG, draft, { targetPath: 'topic/new.md' }).verdict).toBe('ok');
    writeFileSync(join(root, 'topic', 'c.md'), draft.replace('name: b', 'name: c'));
    const r = guardDraft(root, DEFAULT_CONFIG, draft, { targetPath: 'topic/new.md' });
    expect(r.verdict).toBe('refuse');
    expect(r.matches.map((m) => m.path)).toContain('topic/c.md');
  });
});
