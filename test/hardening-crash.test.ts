/** Issue 16, crash and concurrency: an edit made during apply or after a crash is never lost. */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executeChanges } from '../src/apply/execute.js';
import { runMain, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function world(): string {
  const vault = join(tempDir(), 'vault');
  cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
  return vault;
}

describe('apply re-checks each file just before its rename', () => {
  it('a file edited after planning stops the run, which is rolled back whole', () => {
    const vault = world();
    const a = readFileSync(join(vault, 'project_ports.md'));
    const planned = readFileSync(join(vault, 'user_role.md'));
    writeFileSync(join(vault, 'user_role.md'), 'edited by the person while apply ran\n');
    expect(() =>
      executeChanges(
        vault,
        '20260101-000000-000abcd',
        [
          {
            path: 'project_ports.md',
            before: { bytes: a, mode: 0o644 },
            after: { bytes: enc('new ports\n'), mode: 0o644 },
            item: 'x',
          },
          {
            path: 'user_role.md',
            before: { bytes: planned, mode: 0o644 },
            after: { bytes: enc('new role\n'), mode: 0o644 },
            item: 'x',
          },
        ],
        { kind: 'apply', items: [] },
      ),
    ).toThrow(/user_role.md changed while the run was writing/);
    expect(readFileSync(join(vault, 'user_role.md'), 'utf8')).toBe('edited by the person while apply ran\n');
    expect(readFileSync(join(vault, 'project_ports.md'))).toEqual(a);
  });

  it('an I/O error mid-run rolls back at once (no interrupted run left)', async () => {
    const vault = world();
    const a = readFileSync(join(vault, 'project_ports.md'));
    // The second write needs a folder where a file stands: ENOTDIR after the first write.
    expect(() =>
      executeChanges(
        vault,
        '20260101-000000-000abce',
        [
          {
            path: 'project_ports.md',
            before: { bytes: a, mode: 0o644 },
            after: { bytes: enc('new ports\n'), mode: 0o644 },
            item: 'x',
          },
          { path: 'user_role.md/sub.md', before: null, after: { bytes: enc('x\n'), mode: 0o644 }, item: 'x' },
        ],
        { kind: 'apply', items: [] },
      ),
    ).toThrow(/rolled back/);
    expect(readFileSync(join(vault, 'project_ports.md'))).toEqual(a);
    expect((await runMain(['runs', vault])).stdout).toMatch(/rolled-back/);
  });
});

describe('recover after a crash', () => {
  function crashed(vault: string): { now: string } {
    const id = '20260101-000000-000abcd';
    const dir = join(vault, '.memlint', 'runs', id);
    mkdirSync(join(dir, 'objects'), { recursive: true });
    const pre = 'pre-image\n';
    const post = 'post-image\n';
    for (const t of [pre, post]) writeFileSync(join(dir, 'objects', sha(t)), t);
    writeFileSync(
      join(dir, 'journal.jsonl'),
      `${JSON.stringify({ type: 'BEGIN', runId: id, kind: 'apply', at: 'x', items: [], changes: [{ path: 'user_role.md', before: { sha: sha(pre), mode: 420 }, after: { sha: sha(post), mode: 420 }, item: 'x' }], createdDirs: [] })}\n`,
    );
    const now = 'edited after the crash, before recover\n';
    writeFileSync(join(vault, 'user_role.md'), now);
    writeFileSync(join(vault, '.user_role.md.0123456789ab.tmp'), post);
    return { now };
  }

  it('keeps a copy of a file that is neither the pre- nor the post-image, and removes its temporary files', async () => {
    const vault = world();
    const { now } = crashed(vault);
    const r = await runMain(['recover', vault]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /user_role.md was edited after the crash: its content is kept in \.memlint\/runs\/20260101-000000-000abcd\/objects\//,
    );
    expect(readFileSync(join(vault, '.memlint', 'runs', '20260101-000000-000abcd', 'objects', sha(now)), 'utf8')).toBe(
      now,
    );
    expect(readFileSync(join(vault, 'user_role.md'), 'utf8')).toBe('pre-image\n');
    expect(existsSync(join(vault, '.user_role.md.0123456789ab.tmp'))).toBe(false);
  });
});
