/**
 * Issue 16: a folder or file the system refuses is a one-line error naming it (exit 2), never an empty
 * vault answered with exit 0 and never "internal error". The CI runs as root, where chmod does not stop
 * a read: the errors are raised through the fault-injection seam (src/util/fault.ts) the readers call.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { injectFault } from '../src/util/fault.js';
import { runMain, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');

function world(): { base: string; vault: string } {
  const base = tempDir();
  const vault = join(base, 'vault');
  cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
  return { base, vault };
}

afterEach(() => injectFault(null));

describe('the vault folder unreadable: exit 2, one line naming it', () => {
  const commands: [string, (vault: string, base: string) => string[]][] = [
    ['check', (v) => ['check', v]],
    ['check --format json', (v) => ['check', v, '--format', 'json']],
    ['catalog', (v) => ['catalog', v]],
    ['consolidate', (v) => ['consolidate', v, '--out', '-']],
    ['report --html', (v, b) => ['report', v, '--html', join(b, 'r.html')]],
    ['guard', (v, b) => ['guard', v, '--file', join(b, 'draft.md')]],
  ];
  for (const code of ['EACCES', 'EPERM']) {
    for (const [name, args] of commands) {
      it(`${name} (${code})`, async () => {
        const { base, vault } = world();
        writeFileSync(join(base, 'draft.md'), '---\nname: x\ndescription: a draft\ntype: user\n---\nA draft.\n');
        injectFault((op, path) => (op === 'readdir' && path === vault ? code : null));
        const r = await runMain(args(vault, base));
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toContain(vault);
        expect(r.stderr).toContain(code);
        expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(r.stdout).not.toMatch(/0 notes/);
      });
    }
  }

  it("apply: the proposal's vault unreadable", async () => {
    const { base, vault } = world();
    const p = join(base, 'p.yaml');
    expect((await runMain(['consolidate', vault, '--out', p])).code).toBe(0);
    injectFault((op, path) => (op === 'readdir' && path === vault ? 'EACCES' : null));
    const r = await runMain(['apply', p]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(vault);
  });
});

describe('a note the system refuses is a finding naming it; the rest of the vault is checked', () => {
  for (const code of ['ENOENT', 'EISDIR', 'EACCES', 'EFBIG', 'EPERM']) {
    it(code, async () => {
      const { vault } = world();
      const bad = join(vault, 'user_role.md');
      injectFault((op, path) => (op === 'open' && path === bad ? code : null));
      const r = await runMain(['check', vault, '--format', 'json']);
      expect(r.stderr).not.toMatch(/internal error/);
      const out = JSON.parse(r.stdout) as {
        findings?: { file: string; ruleId: string; message: string }[];
        skipped?: unknown;
      };
      const text = JSON.stringify(out);
      expect(text).toContain('user_role.md');
      expect(text).toContain(code);
      expect(text).toContain('project_deploy.md'); // the others were read
    });
  }
});
