import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runBin, tempDir } from './helpers/run.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });

function repoWithVault(): { repo: string; vault: string } {
  const repo = tempDir();
  git(repo, 'init', '-q');
  const vault = join(repo, 'memory');
  cpSync(join('fixtures', 'note', 'orphan', 'reachable-through-notes', 'vault'), vault, { recursive: true });
  writeFileSync(join(repo, 'code.txt'), 'x\n');
  return { repo, vault };
}

function tryCommit(repo: string, message: string): { ok: boolean; output: string } {
  try {
    const out = execFileSync('git', ['commit', '-qm', message], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PATH: process.env.PATH,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
    return { ok: true, output: out };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe('hook install', () => {
  it('installs an executable pre-commit hook that blocks a commit that breaks the vault', () => {
    const { repo, vault } = repoWithVault();
    const r = runBin(['hook', 'install', vault]);
    expect(r.code).toBe(0);
    const hook = join(repo, '.git', 'hooks', 'pre-commit');
    expect(statSync(hook).mode & 0o111).not.toBe(0);
    expect(readFileSync(hook, 'utf8')).toContain(CLI);
    git(repo, 'add', '.');
    expect(tryCommit(repo, 'clean vault').ok).toBe(true);
    writeFileSync(join(vault, 'orphan.md'), '---\nname: o\ndescription: o\ntype: user\n---\nnobody links me\n');
    git(repo, 'add', '.');
    const blocked = tryCommit(repo, 'adds an orphan');
    expect(blocked.ok).toBe(false);
    expect(blocked.output).toMatch(/note\/orphan/);
  });

  it('does not run when no memory file is staged', () => {
    const { repo, vault } = repoWithVault();
    writeFileSync(join(vault, 'orphan.md'), '---\nname: o\ndescription: o\ntype: user\n---\nx\n');
    git(repo, 'add', 'code.txt');
    runBin(['hook', 'install', vault]);
    expect(tryCommit(repo, 'code only').ok).toBe(true);
  });

  it('refuses to replace a hook that is not its own', () => {
    const { repo, vault } = repoWithVault();
    mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(repo, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho mine\n');
    const r = runBin(['hook', 'install', vault]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already exists and is not memlint's/);
    expect(readFileSync(join(repo, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('prints the husky snippet instead when the repository uses husky', () => {
    const { repo, vault } = repoWithVault();
    mkdirSync(join(repo, '.husky'));
    const r = runBin(['hook', 'install', vault]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/uses husky/);
    expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('outside a git repository: one-line error', () => {
    const r = runBin(['hook', 'install', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: hook: .* is not inside a git repository\n$/);
  });
});

describe('the pre-commit hook judges the commit (the git index), not the working tree', () => {
  const bad = '---\nname: [unclosed\ndescription: broken\n---\nbody\n';
  const good = '---\nname: a\ndescription: about a\ntype: user\n---\n\nSee [[b]], fixed.\n';

  it('refuses a staged note with invalid front matter that is fixed only in the working tree', () => {
    const { repo, vault } = repoWithVault();
    runBin(['hook', 'install', vault]);
    git(repo, 'add', '.');
    expect(tryCommit(repo, 'clean vault').ok).toBe(true);
    writeFileSync(join(vault, 'a.md'), bad);
    git(repo, 'add', 'memory/a.md');
    writeFileSync(join(vault, 'a.md'), good); // fixed, but not staged
    const indexBefore = git(repo, 'ls-files', '-s');
    const r = tryCommit(repo, 'staged broken note');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/note\/frontmatter-invalid/);
    // the hook changed neither the working tree nor the index
    expect(readFileSync(join(vault, 'a.md'), 'utf8')).toBe(good);
    expect(git(repo, 'ls-files', '-s')).toBe(indexBefore); // git itself may refresh stat data in .git/index
    expect(git(repo, 'show', ':memory/a.md')).toBe(bad);
  });

  it('commits a good staged note even when an unstaged edit in the working tree is broken', () => {
    const { repo, vault } = repoWithVault();
    runBin(['hook', 'install', vault]);
    git(repo, 'add', '.');
    expect(tryCommit(repo, 'clean vault').ok).toBe(true);
    writeFileSync(join(vault, 'a.md'), good);
    git(repo, 'add', 'memory/a.md');
    writeFileSync(join(vault, 'a.md'), bad); // broken, not staged
    writeFileSync(join(vault, 'untracked-orphan.md'), '---\nname: u\ndescription: u\ntype: user\n---\nnot staged\n');
    const r = tryCommit(repo, 'good staged note');
    expect(r.output).toBe('');
    expect(r.ok).toBe(true);
    expect(git(repo, 'show', 'HEAD:memory/a.md')).toBe(good);
    expect(readFileSync(join(vault, 'a.md'), 'utf8')).toBe(bad);
  });

  it('check --staged reads the index: same findings as the working tree when they agree', () => {
    const { repo, vault } = repoWithVault();
    git(repo, 'add', '.');
    const staged = runBin(['check', vault, '--staged', '--format', 'json']);
    const disk = runBin(['check', vault, '--format', 'json']);
    expect(staged.code).toBe(disk.code);
    expect(JSON.parse(staged.stdout)).toEqual(JSON.parse(disk.stdout));
    writeFileSync(join(vault, 'a.md'), bad);
    expect(runBin(['check', vault, '--staged', '--format', 'json']).code).toBe(0);
    expect(runBin(['check', vault, '--format', 'json']).code).toBe(1);
  });

  it('check --staged outside a git repository: one-line error', () => {
    const r = runBin(['check', tempDir(), '--staged']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: --staged: .* is not inside a git repository\n$/);
  });
});
