/**
 * Issue 14: guard keeps what `git log` said about its matches (VAULT/.memlint/cache/guard-git-v1.json)
 * while the repository is unchanged, and runs no git at all outside a repository. The answers must be
 * git's own: after a commit, a branch switch, refs packed, in a linked worktree, with a GIT_* variable
 * that changes what git reads.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { knownRuleIds } from '../src/rules/ids.js';
import { guardDraft } from '../src/guard/guard.js';
import { repoState } from '../src/util/git.js';
import { tempDir } from './helpers/run.js';

const body =
  'Always use pnpm for installs in this repository; never npm or yarn, the lockfile is pnpm-lock.yaml and CI fails otherwise.';
const note = (i: number, extra = ''): string =>
  `---\nname: pnpm-${i}\ndescription: pnpm ${i}\ntype: feedback\n---\n${body} (${i})${extra}\n`;
const draft = `---\nname: pnpm-new\ndescription: pnpm\ntype: feedback\n---\n${body}\n`;

let saved: NodeJS.ProcessEnv;
let log: string;
beforeEach(() => {
  saved = { ...process.env };
  // The test's own git, logged: first on PATH.
  const bin = tempDir();
  log = join(bin, 'git.log');
  writeFileSync(log, '');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> ${log}\nexec ${real} "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, {
    PATH: `${bin}:${saved.PATH}`,
    GIT_AUTHOR_NAME: 'tester',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 'tester',
    GIT_COMMITTER_EMAIL: 't@t',
  });
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

const logs = (): number =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l === 'log').length;
const git = (cwd: string, ...a: string[]): string => execFileSync('git', a, { cwd, encoding: 'utf8' });
async function origins(vault: string, cache: 'read-write' | 'off' = 'read-write'): Promise<Record<string, string>> {
  const { config } = await loadConfig(vault, undefined, knownRuleIds);
  const r = guardDraft(vault, config, draft, { cache, now: new Date('2026-12-01T00:00:00Z') });
  return Object.fromEntries(r.matches.map((m) => [m.path, `${m.origin} ${m.modified}`]));
}

function repo(): { top: string; vault: string } {
  const top = tempDir();
  const vault = join(top, 'memory');
  mkdirSync(vault);
  writeFileSync(join(vault, 'MEMORY.md'), '# Memory\n');
  for (let i = 0; i < 3; i++) writeFileSync(join(vault, `pnpm_${i}.md`), note(i));
  git(top, 'init', '-q', '-b', 'main');
  git(top, 'add', '.');
  git(top, 'commit', '-qm', 'notes');
  return { top, vault };
}

describe('guard git answers', () => {
  it('outside a repository git is not run, and the answer is what git would have given', async () => {
    const vault = tempDir();
    for (let i = 0; i < 3; i++) writeFileSync(join(vault, `pnpm_${i}.md`), note(i));
    expect(repoState(vault)).toBe('none');
    const a = await origins(vault);
    expect(Object.keys(a)).toHaveLength(3);
    for (const o of Object.values(a)) expect(o).toMatch(/^unknown /);
    expect(logs()).toBe(0);
  });

  it('in a repository: asked once, then from the cache until HEAD, a branch or the refs change', async () => {
    const { top, vault } = repo();
    const first = await origins(vault);
    expect(logs()).toBe(1);
    const head = git(top, 'rev-parse', 'HEAD').trim().slice(0, 12);
    for (const o of Object.values(first)) expect(o).toContain(`git ${head} by tester`);
    expect(await origins(vault)).toEqual(first);
    expect(logs()).toBe(1);
    // A commit that touches one match: its origin is the new commit.
    writeFileSync(join(vault, 'pnpm_1.md'), note(1, ' Still true.'));
    git(top, 'commit', '-qam', 'edit');
    const second = await origins(vault);
    const head2 = git(top, 'rev-parse', 'HEAD').trim().slice(0, 12);
    expect(second['pnpm_1.md']).toContain(`git ${head2} by tester`);
    expect(second['pnpm_0.md']).toContain(`git ${head} by tester`);
    expect(second).toEqual(await origins(vault, 'off'));
    // Packed refs, same commit: the same answer.
    git(top, 'pack-refs', '--all');
    expect(await origins(vault)).toEqual(second);
    // Another branch where pnpm_2 changed; back on main afterwards.
    git(top, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    writeFileSync(join(vault, 'pnpm_2.md'), note(2, ' Other branch.'));
    git(top, 'commit', '-qam', 'other');
    const other = await origins(vault);
    expect(other).toEqual(await origins(vault, 'off'));
    expect(other['pnpm_2.md']).toContain(`git ${git(top, 'rev-parse', 'HEAD').trim().slice(0, 12)} by tester`);
    git(top, 'checkout', '-q', 'main');
    expect(await origins(vault)).toEqual(second);
    // A GIT_* variable that changes what git reads: git is asked, not the cache.
    const before = logs();
    process.env.GIT_CEILING_DIRECTORIES = top;
    expect(repoState(vault)).toBe('unknown');
    await origins(vault);
    expect(logs()).toBe(before + 1);
  });

  it('in a linked worktree (a .git file): commits there are seen', async () => {
    const { top } = repo();
    const wt = join(tempDir(), 'wt');
    git(top, 'worktree', 'add', '-q', '-b', 'side', wt);
    const vault = join(wt, 'memory');
    const first = await origins(vault);
    expect(first).toEqual(await origins(vault, 'off'));
    writeFileSync(join(vault, 'pnpm_0.md'), note(0, ' In the worktree.'));
    git(wt, 'commit', '-qam', 'wt edit');
    const after = await origins(vault);
    expect(after['pnpm_0.md']).toContain(`git ${git(wt, 'rev-parse', 'HEAD').trim().slice(0, 12)} by tester`);
    expect(after).toEqual(await origins(vault, 'off'));
  });
});
