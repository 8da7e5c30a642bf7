/**
 * Issue 18: an index write answers reachability from guard's signature cache (each note's links,
 * kept by size and mtime), not from a vault load. These tests change the vault between two guard
 * calls — a note edited, added, removed, renamed — and check that the cached answer follows the
 * disk, and that it is the answer a vault load gives (`reachability()`, the function `check` uses).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft } from '../src/guard/guard.js';
import { reachability } from '../src/rules/reachability.js';
import { loadVault } from '../src/vault/load.js';
import { readCache } from '../src/guard/cache.js';
import { GuardTimeout } from '../src/guard/deadline.js';
import { runBin, tempDir } from './helpers/run.js';

const note = (i: number, extra = ''): string =>
  `---\nname: note ${i}\ndescription: fact number ${i}\ntype: project\n---\n\nFact number ${i}.\n${extra}`;
const line = (i: number): string => `- [Note ${i}](note-${i}.md) — fact number ${i}`;
const indexOf = (ids: readonly number[]): string => `${ids.map(line).join('\n')}\n`;
const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k + 1);

function vault(n = 12): string {
  const dir = tempDir();
  for (let i = 1; i <= n; i++) writeFileSync(join(dir, `note-${i}.md`), note(i));
  writeFileSync(join(dir, 'MEMORY.md'), indexOf(range(n)));
  return dir;
}

async function guardIndex(dir: string, text: string) {
  const { config } = await loadConfig(dir, undefined, knownRuleIds);
  return guardDraft(dir, config, text, { targetPath: config.index.file });
}

/** What a vault load says the write makes unreachable: notes linked before and not after. */
async function expected(dir: string, text: string): Promise<string[]> {
  const { config } = await loadConfig(dir, undefined, knownRuleIds);
  const before = reachability(loadVault(dir, { config, kind: 'claude' })).linked;
  const copy = tempDir();
  // Same notes, the index as it would be: a second vault (links resolve the same way).
  for (const f of loadVault(dir, { config, kind: 'claude' }).files) {
    mkdirSync(join(copy, f.path, '..'), { recursive: true });
    writeFileSync(join(copy, f.path), f.path === config.index.file ? text : readFileSync(join(dir, f.path)));
  }
  const v = loadVault(copy, { config, kind: 'claude' });
  const after = reachability(v).linked;
  return [...before].filter((p) => v.byPath.get(p)?.role === 'note' && !after.has(p)).sort();
}

const unreachableOf = (r: Awaited<ReturnType<typeof guardIndex>>): string[] => {
  const m = r.reasons
    .join('\n')
    .match(/removes the only path to \d+ note\(s\), which the agent would no longer find: (.*)/);
  return m
    ? m[1]!
        .split(', ')
        .filter((p) => p !== '…')
        .sort()
    : [];
};

/** Touch a file so its mtime differs from the cached one even within one clock tick. */
const bump = (path: string, seconds: number): void =>
  utimesSync(path, new Date(Date.now() + seconds * 1000), new Date(Date.now() + seconds * 1000));

describe('index writes: reachability from the guard cache', () => {
  it('builds the cache on the first call and answers from it on the next', async () => {
    const dir = vault();
    const without7 = indexOf(range(12).filter((i) => i !== 7));
    const first = await guardIndex(dir, without7);
    expect(first.cache.computed).toBe(12);
    const second = await guardIndex(dir, without7);
    expect(second.cache).toEqual({ fromCache: 12, computed: 0 });
    expect(unreachableOf(second)).toEqual(['note-7.md']);
    expect(unreachableOf(second)).toEqual(await expected(dir, without7));
  });

  it('a note edited since the cache was written: its new links count, its old ones do not', async () => {
    const dir = vault();
    writeFileSync(join(dir, 'note-3.md'), note(3, 'See [note 7](note-7.md).\n'));
    const without7 = indexOf(range(12).filter((i) => i !== 7));
    expect(unreachableOf(await guardIndex(dir, without7))).toEqual([]); // note-3 still reaches note-7
    // note-3 drops its link (same size: only the mtime tells).
    writeFileSync(join(dir, 'note-3.md'), note(3, 'See [note 7](note-0.md).\n'));
    bump(join(dir, 'note-3.md'), 5);
    const r = await guardIndex(dir, without7);
    expect(r.cache).toEqual({ fromCache: 11, computed: 1 });
    expect(unreachableOf(r)).toEqual(['note-7.md']);
    expect(unreachableOf(r)).toEqual(await expected(dir, without7));
  });

  it('a note added since: its links count, and a wikilink that pointed nowhere now resolves to it', async () => {
    const dir = vault();
    writeFileSync(join(dir, 'note-3.md'), note(3, 'See [[bridge]].\n'));
    const without7 = indexOf(range(12).filter((i) => i !== 7));
    expect(unreachableOf(await guardIndex(dir, without7))).toEqual(['note-7.md']);
    writeFileSync(
      join(dir, 'bridge.md'),
      '---\nname: bridge\ndescription: a bridge\ntype: project\n---\n\nSee [note 7](note-7.md).\n',
    );
    const r = await guardIndex(dir, without7);
    expect(r.cache.computed).toBe(1);
    expect(unreachableOf(r)).toEqual([]);
    expect(unreachableOf(r)).toEqual(await expected(dir, without7));
  });

  it('a note removed since: its cached links no longer reach anything', async () => {
    const dir = vault();
    writeFileSync(join(dir, 'note-3.md'), note(3, 'See [note 7](note-7.md).\n'));
    const without7 = indexOf(range(12).filter((i) => i !== 7));
    expect(unreachableOf(await guardIndex(dir, without7))).toEqual([]);
    rmSync(join(dir, 'note-3.md'));
    const r = await guardIndex(dir, without7);
    expect(unreachableOf(r)).toEqual(['note-7.md']);
    expect(unreachableOf(r)).toEqual(await expected(dir, without7));
  });

  it('a note renamed in its front matter: a wikilink by the old name is broken, by the new one is not', async () => {
    const dir = vault();
    const withLink = (target: string): string => `${indexOf(range(12))}- [[${target}]] — by name\n`;
    writeFileSync(join(dir, 'note-5.md'), note(5).replace('name: note 5', 'name: alpha rules'));
    expect((await guardIndex(dir, withLink('alpha rules'))).reasons.join()).not.toMatch(/do not exist/);
    writeFileSync(join(dir, 'note-5.md'), note(5).replace('name: note 5', 'name: omega rules'));
    bump(join(dir, 'note-5.md'), 5);
    const r = await guardIndex(dir, withLink('alpha rules'));
    expect(r.cache).toEqual({ fromCache: 11, computed: 1 });
    expect(r.reasons.join()).toMatch(/do not exist: alpha rules/);
    expect((await guardIndex(dir, withLink('omega rules'))).reasons.join()).not.toMatch(/do not exist/);
  });

  it('a corrupt cache is rebuilt and gives the same answer', async () => {
    const dir = vault();
    const without7 = indexOf(range(12).filter((i) => i !== 7));
    await guardIndex(dir, without7);
    const file = join(dir, '.memlint', 'cache', 'guard-v2.bin');
    const bytes = readFileSync(file);
    bytes.fill(0x7b, bytes.length - 40); // the links section's tail
    writeFileSync(file, bytes);
    const r = await guardIndex(dir, without7);
    expect(unreachableOf(r)).toEqual(['note-7.md']);
  });
});

describe("index writes: the cached answer is the vault load's on real vaults", () => {
  const corpus = join(process.cwd(), '..', 'shared', 'corpus', 'claude');
  let names: string[] = [];
  try {
    names = readdirSync(corpus);
  } catch {
    names = [];
  }
  it('has corpus vaults to compare on', () => expect(names.length).toBeGreaterThan(0));
  for (const name of names) {
    it(`${name}: removing index lines names the notes a vault load names`, async () => {
      const src = join(corpus, name);
      const { config } = await loadConfig(src, undefined, knownRuleIds);
      const v = loadVault(src, { config, kind: 'claude' });
      if (!v.index) return;
      // Work on a copy (the guard writes its cache into the vault).
      const dir = tempDir();
      for (const f of v.files) {
        mkdirSync(join(dir, f.path, '..'), { recursive: true });
        writeFileSync(join(dir, f.path), readFileSync(join(src, f.path)));
      }
      for (const o of v.otherFiles) {
        try {
          mkdirSync(join(dir, o, '..'), { recursive: true });
          writeFileSync(join(dir, o), readFileSync(join(src, o)));
        } catch {
          /* a folder */
        }
      }
      const lines = readFileSync(join(dir, config.index.file), 'utf8').split('\n');
      const linked = lines.map((l, i) => [l, i] as const).filter(([l]) => /\]\(|\[\[/.test(l));
      // Every third linked line removed at once, and the first linked line alone.
      const drafts = [
        lines.filter((_, i) => !linked.some(([, j], k) => k % 3 === 0 && j === i)).join('\n'),
        lines.filter((_, i) => i !== linked[0]?.[1]).join('\n'),
      ];
      for (const d of drafts) {
        const r = await guardIndex(dir, d);
        const want = await expected(dir, d);
        expect(unreachableOf(r).slice(0, 8)).toEqual(want.slice(0, 8));
        if (want.length) expect(r.reasons.join()).toMatch(new RegExp(`only path to ${want.length} note`));
      }
    }, 60_000);
  }
});

describe("the hook's wall-clock bound", () => {
  it('past --timeout the write passes unchecked with one line on stderr, and the notes read so far are cached', async () => {
    const dir = vault(400);
    const draft = note(1).replace('Fact number 1.', 'Fact number 1, again.');
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(dir, 'note-1.md'), content: draft },
    });
    const r = runBin(['guard', '--claude-hook', '--timeout', '1', dir], { stdin: payload });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^memlint guard --claude-hook: took longer than 1 ms \(stopped after reading \d+ notes \(cached for the next call\)\); raise it with --timeout MS; not checked\n$/,
    );
    // In process (the built CLI's cache is keyed by its build): a call past its bound caches what it read.
    const { config } = await loadConfig(dir, undefined, knownRuleIds);
    expect(() => guardDraft(dir, config, draft, { targetPath: 'note-1.md', deadline: Date.now() - 1 })).toThrow(
      GuardTimeout,
    );
    const table = readCache(dir);
    expect(table!.paths.length).toBe(63);
    // The next call goes on from there.
    const next = guardDraft(dir, config, draft, { targetPath: 'note-1.md' });
    expect(next.cache.fromCache).toBe(table!.paths.length);
    expect(next.cache.fromCache + next.cache.computed).toBe(400);
  });
  it('without --timeout the hook answers as before (default bound 5 s), and a bad --timeout is a usage error', () => {
    const dir = vault(12);
    const payload = JSON.stringify({
      tool_name: 'Edit',
      tool_input: { file_path: join(dir, 'MEMORY.md'), old_string: `${line(7)}\n`, new_string: '' },
    });
    const a = runBin(['guard', '--claude-hook', dir], { stdin: payload });
    expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(runBin(['guard', '--claude-hook', '--timeout', 'soon', dir], { stdin: payload }).code).toBe(2);
    expect(runBin(['guard', dir, '--timeout', '5'], { stdin: 'x' }).code).toBe(2);
  });
});
