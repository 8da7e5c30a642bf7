/**
 * Issue 16, writes outside the vault: a vault (and its .memlint state folder) is untrusted input, and
 * so is a proposal's `vault:` field. Each case was a write outside the vault (or a created folder).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveAll, editProposal, proposeInto } from './helpers/proposal.js';
import { runMain, tempDir } from './helpers/run.js';
import { snapshotTree } from './helpers/snapshot.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');
const RUN = '20260101-000000-000abcd';

function world(): { base: string; vault: string } {
  const base = tempDir();
  const vault = join(base, 'vault');
  cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
  return { base, vault };
}

/** A run folder written by hand, as a cloned repository could carry it. */
function craftRun(
  vault: string,
  changes: object[],
  objects: Record<string, string | Buffer>,
  committed: boolean,
  id = RUN,
): void {
  const dir = join(vault, '.memlint', 'runs', id);
  mkdirSync(join(dir, 'objects'), { recursive: true });
  for (const [name, bytes] of Object.entries(objects)) writeFileSync(join(dir, 'objects', name), bytes);
  const lines = [
    {
      type: 'BEGIN',
      runId: id,
      kind: 'apply',
      at: '2026-01-01T00:00:00.000Z',
      items: [{ id: 'x', status: 'run' }],
      changes,
      createdDirs: [],
    },
  ];
  if (committed) lines.push({ type: 'COMMIT', at: '2026-01-01T00:00:01.000Z' } as never);
  writeFileSync(join(dir, 'journal.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const oneLine = (s: string): void => {
  expect(s.trim().split('\n')).toHaveLength(1);
  expect(s).not.toMatch(/internal error|\n\s+at /);
};

describe('a crafted .memlint journal', () => {
  it('recover does not overwrite ../target_a.txt nor delete ../precious.txt', async () => {
    const { base, vault } = world();
    writeFileSync(join(base, 'target_a.txt'), 'mine\n');
    writeFileSync(join(base, 'precious.txt'), 'precious\n');
    const evil = 'owned\n';
    craftRun(
      vault,
      [
        { path: '../target_a.txt', before: { sha: sha(evil), mode: 420 }, after: null, item: 'x' },
        { path: '../precious.txt', before: null, after: { sha: sha(evil), mode: 420 }, item: 'x' },
      ],
      { [sha(evil)]: evil },
      false,
    );
    const before = snapshotTree(vault, { mtime: 'ms' });
    const r = await runMain(['recover', vault]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(readFileSync(join(base, 'target_a.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(base, 'precious.txt'), 'utf8')).toBe('precious\n');
    expect(snapshotTree(vault, { mtime: 'ms' })).toEqual(before);
  });

  it('recover refuses absolute paths and paths through a link out of the vault', async () => {
    const { base, vault } = world();
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(vault, 'link'));
    const evil = 'owned\n';
    craftRun(
      vault,
      [
        { path: 'link/x.md', before: { sha: sha(evil), mode: 420 }, after: null, item: 'x' },
        { path: join(base, 'abs.txt'), before: { sha: sha(evil), mode: 420 }, after: null, item: 'x' },
      ],
      { [sha(evil)]: evil },
      false,
    );
    const r = await runMain(['recover', vault]);
    expect(r.code).toBe(2);
    expect(readdirSync(join(base, 'outside'))).toEqual([]);
    expect(existsSync(join(base, 'abs.txt'))).toBe(false);
  });

  it('undo of a crafted committed run does not write outside the vault', async () => {
    const { base, vault } = world();
    const evil = 'owned\n';
    craftRun(
      vault,
      [{ path: '../planted.txt', before: { sha: sha(evil), mode: 420 }, after: null, item: 'x' }],
      { [sha(evil)]: evil },
      true,
    );
    const r = await runMain(['undo', '--vault', vault]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(existsSync(join(base, 'planted.txt'))).toBe(false);
  });

  it('undo RUN_ID that is a path is refused', async () => {
    const { base, vault } = world();
    mkdirSync(join(base, 'elsewhere', '20260101-000000-000abcd'), { recursive: true });
    const r = await runMain(['undo', '../../../elsewhere/20260101-000000-000abcd', '--vault', vault]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
  });

  it('a run whose stored images do not hash to its journal is refused before anything is written', async () => {
    const { vault } = world();
    const a = readFileSync(join(vault, 'user_role.md'));
    const good = 'good\n';
    // The run "changed" user_role.md and project_ports.md; the pre-image of project_ports.md is tampered.
    craftRun(
      vault,
      [
        {
          path: 'project_ports.md',
          before: { sha: sha('original\n'), mode: 420 },
          after: { sha: sha(readFileSync(join(vault, 'project_ports.md'))), mode: 420 },
          item: 'x',
        },
        { path: 'user_role.md', before: { sha: sha(good), mode: 420 }, after: { sha: sha(a), mode: 420 }, item: 'x' },
      ],
      { [sha('original\n')]: 'tampered\n', [sha(good)]: good },
      false,
    );
    const before = snapshotTree(vault, { mtime: 'ms' });
    const r = await runMain(['recover', vault]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/corrupt/);
    const strip = (m: Map<string, string>): Map<string, string> =>
      new Map([...m].filter(([k]) => !k.startsWith('.memlint')));
    expect(strip(snapshotTree(vault, { mtime: 'ms' }))).toEqual(strip(before));
  });
});

describe('recover on a path that is not a vault', () => {
  it('path/with/typo: exit 2, one line, nothing created', async () => {
    const base = tempDir();
    const r = await runMain(['recover', join(base, 'path', 'with', 'typo')]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(readdirSync(base)).toEqual([]);
  });

  it('an existing folder without state: nothing to recover, no .memlint made', async () => {
    const base = tempDir();
    const r = await runMain(['recover', base]);
    expect(r.code).toBe(0);
    expect(readdirSync(base)).toEqual([]);
    const u = await runMain(['undo', '--vault', base]);
    expect(u.code).toBe(2);
    expect(readdirSync(base)).toEqual([]);
  });
});

describe('a .memlint state folder that is a symbolic link', () => {
  function linked(which: '.memlint' | '.memlint/retired'): {
    base: string;
    vault: string;
    outside: string;
    proposal: string;
  } {
    const { base, vault } = world();
    const proposal = proposeInto(vault, join(base, 'proposal.yaml'));
    approveAll(proposal);
    const outside = join(base, 'outside');
    mkdirSync(outside);
    if (which === '.memlint/retired') mkdirSync(join(vault, '.memlint'));
    symlinkSync(outside, join(vault, which));
    return { base, vault, outside, proposal };
  }

  for (const which of ['.memlint', '.memlint/retired'] as const) {
    it(`apply --execute refuses when ${which} links out of the vault`, async () => {
      const { vault, outside, proposal } = linked(which);
      const before = snapshotTree(vault, { mtime: 'ms' });
      const r = await runMain(['apply', proposal, '--execute']);
      expect(r.code).toBe(2);
      oneLine(r.stderr);
      expect(readdirSync(outside)).toEqual([]);
      expect(snapshotTree(vault, { mtime: 'ms' })).toEqual(before);
    });
  }

  it('undo and recover refuse it', async () => {
    const { vault, outside } = linked('.memlint');
    // A stale lock (its process is gone): recover would remove it, through the link.
    writeFileSync(
      join(outside, 'lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), command: 'apply', at: 'x' }),
    );
    expect((await runMain(['undo', '--vault', vault])).code).toBe(2);
    expect((await runMain(['recover', vault])).code).toBe(2);
    expect(readdirSync(outside)).toEqual(['lock']);
  });

  it('guard, check --cache and consolidate write nothing through it', async () => {
    const { vault, outside } = linked('.memlint');
    const draft = join(vault, '..', 'draft.md');
    writeFileSync(draft, '---\nname: x\ndescription: a new note\ntype: project\n---\nSomething new about deploys.\n');
    const g = await runMain(['guard', vault, '--file', draft]);
    expect([0, 1]).toContain(g.code);
    const c = await runMain(['check', vault, '--cache']);
    expect([0, 1]).toContain(c.code);
    const p = await runMain(['consolidate', vault]);
    expect(p.code).toBe(2);
    oneLine(p.stderr);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('catalog --write refuses a catalog file outside the vault', async () => {
    const { base, vault } = world();
    writeFileSync(join(vault, 'memlint.config.json'), JSON.stringify({ catalog: { file: '../escaped.md' } }));
    const r = await runMain(['catalog', vault, '--write']);
    expect(r.code).toBe(2);
    expect(existsSync(join(base, 'escaped.md'))).toBe(false);
  });
});

describe("the proposal's vault: field", () => {
  it('pointing it at another folder is refused; nothing there moves', async () => {
    const { base, vault } = world();
    const proposal = proposeInto(vault, join(base, 'proposal.yaml'));
    approveAll(proposal);
    // Another folder holding the same notes (so every item's hashes match) plus a file of its own.
    const other = join(base, 'project', 'docs');
    cpSync(DEMO, other, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(other, 'design.md'), '# design\n');
    writeFileSync(proposal, readFileSync(proposal, 'utf8').replace(/^vault: .*$/m, `vault: ${other}`));
    const before = snapshotTree(other, { mtime: 'ms' });
    const r = await runMain(['apply', proposal, '--execute']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/--vault/);
    expect(snapshotTree(other, { mtime: 'ms' })).toEqual(before);
    // Named on the command line, the vault is the person's choice (items are still checked one by one).
    const named = await runMain(['apply', proposal, '--vault', vault]);
    expect(named.code).toBe(0);
  });

  it('a missing path is refused and not created', async () => {
    const { base, vault } = world();
    const proposal = proposeInto(vault, join(base, 'proposal.yaml'));
    approveAll(proposal);
    writeFileSync(
      proposal,
      readFileSync(proposal, 'utf8').replace(/^vault: .*$/m, `vault: ${join(base, 'nowhere', 'v')}`),
    );
    const r = await runMain(['apply', proposal, '--execute']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(existsSync(join(base, 'nowhere'))).toBe(false);
  });

  it("a relative path is read from the proposal's folder, not the current directory", async () => {
    const { base, vault } = world();
    const proposal = proposeInto(vault, join(base, 'proposal.yaml'));
    editProposal(proposal, (items) => {
      items.find((i) => i.kind === 'near-duplicate').decision = 'approve';
    });
    writeFileSync(proposal, readFileSync(proposal, 'utf8').replace(/^vault: .*$/m, 'vault: vault'));
    const cwd = tempDir();
    mkdirSync(join(cwd, 'vault'));
    const r = await runMain(['apply', proposal, '--execute'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(cwd, 'vault'))).toEqual([]);
    expect(existsSync(join(vault, 'feedback_pnpm-only.md'))).toBe(false);
  });

  it('a proposal in VAULT/.memlint/proposals/ applies to that vault whatever its field says', async () => {
    const { base, vault } = world();
    const p = await runMain(['consolidate', vault]);
    expect(p.code).toBe(0);
    const file = p.stdout.trim();
    editProposal(file, (items) => {
      items.find((i) => i.kind === 'near-duplicate').decision = 'approve';
    });
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^vault: .*$/m, `vault: ${join(base, 'elsewhere')}`));
    const r = await runMain(['apply', file, '--execute']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(base, 'elsewhere'))).toBe(false);
  });
});

describe('git snapshots', () => {
  it('hold only the files the run touches: a git-ignored memory/.env never enters refs/memlint', async () => {
    const repo = tempDir();
    const g = (...a: string[]): string =>
      execFileSync('git', a, {
        cwd: repo,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      }).trim();
    g('init', '-q');
    const vault = join(repo, 'memory');
    cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(repo, '.gitignore'), '.env\n');
    g('add', '.');
    g('commit', '-qm', 'initial');
    writeFileSync(join(vault, '.env'), 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n');
    writeFileSync(join(vault, 'untracked-scratch.md'), 'scratch\n');
    const proposal = proposeInto(vault, join(repo, '..', 'proposal.yaml'));
    approveAll(proposal);
    const r = await runMain(['apply', proposal, '--execute']);
    expect(r.code, r.stderr).toBe(0);
    const runId = /run id: (\S+)/.exec(r.stdout)![1]!;
    for (const label of ['pre', 'post']) {
      const files = g('ls-tree', '-r', '--name-only', `refs/memlint/runs/${runId}/${label}`).split('\n');
      expect(files).not.toContain('memory/.env');
      expect(files).not.toContain('memory/untracked-scratch.md');
    }
    const pre = g('rev-parse', `refs/memlint/runs/${runId}/pre`);
    expect(g('show', `${pre}:memory/feedback_pnpm-only.md`)).toBe(
      readFileSync(join(DEMO, 'feedback_pnpm-only.md'), 'utf8').trimEnd(),
    );
  });
});
