/**
 * Crash injection: the process is killed with SIGKILL before durable write step k, for every k of a
 * multi-item apply (and of undo and of recover). Afterwards every command that writes refuses until
 * `memlint recover`, which restores the pre-state exactly (or, with --forward, the post-state).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveAll, proposeInto } from './helpers/proposal.js';
import { runBin, tempDir } from './helpers/run.js';
import { snapshotTree } from './helpers/snapshot.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const state = (dir: string): Map<string, string> =>
  new Map([...snapshotTree(dir, { mtime: 'ignore' })].filter(([k]) => !k.startsWith('.memlint')));

/** A fresh copy of the demo with an all-approved proposal for it. */
function template(): { vault: string; proposal: string } {
  const vault = join(tempDir(), 'vault');
  cpSync(DEMO, vault, { recursive: true, verbatimSymlinks: true });
  const proposal = proposeInto(vault, join(vault, '..', 'p.yaml'));
  approveAll(proposal);
  return { vault, proposal };
}

function copyOf(t: { vault: string; proposal: string }): { vault: string; proposal: string } {
  const vault = join(tempDir(), 'vault');
  cpSync(t.vault, vault, { recursive: true, verbatimSymlinks: true });
  const proposal = join(vault, '..', 'p.yaml');
  writeFileSync(proposal, readFileSync(t.proposal, 'utf8').replace(/^vault: .*$/m, `vault: ${vault}`));
  return { vault, proposal };
}

const crashAt = (k: number) => ({ env: { MEMLINT_TEST_CRASH_AT_STEP: String(k) } });

describe('crash injection', () => {
  const t = template();
  const pre = state(t.vault);
  const done = copyOf(t);
  expect(runBin(['apply', done.proposal, '--execute']).code).toBe(0);
  const post = state(done.vault);

  it('apply killed at every write step: writers refuse, recover restores the pre-state, --forward the post-state', () => {
    let k = 1;
    for (; k < 200; k++) {
      const back = copyOf(t);
      const r = runBin(['apply', back.proposal, '--execute'], crashAt(k));
      if (r.code === 0) break; // past the last step: the run completed
      expect(r.code).toBe(-1); // killed by the signal
      const again = runBin(['apply', back.proposal, '--execute']);
      const began = again.stderr.includes('was interrupted');
      if (began) {
        expect(again.code).toBe(2);
        expect(runBin(['undo', '--vault', back.vault]).code).toBe(2);
        expect(runBin(['recover', back.vault]).code).toBe(0);
        expect(state(back.vault), `rollback after a crash at step ${k}`).toEqual(pre);
        const fwd = copyOf(t);
        runBin(['apply', fwd.proposal, '--execute'], crashAt(k));
        expect(runBin(['recover', fwd.vault, '--forward']).code).toBe(0);
        expect(state(fwd.vault), `forward after a crash at step ${k}`).toEqual(post);
      } else {
        // Killed before the journal's BEGIN: no note was touched, but the lock stays. It is reported,
        // never taken over; recover clears it and there is nothing to roll back.
        expect(again.code).toBe(2);
        expect(again.stderr).toMatch(/the lock is stale/);
        expect(state(back.vault)).toEqual(pre);
        const rec = runBin(['recover', back.vault]);
        expect(rec.stdout).toMatch(/removed a stale lock/);
        expect(runBin(['apply', back.proposal, '--execute']).code).toBe(0);
        expect(state(back.vault)).toEqual(post);
      }
    }
    expect(k).toBeGreaterThan(10);
  }, 600_000);

  it('undo killed at every write step: recover rolls the undo back; --forward finishes it', () => {
    let k = 1;
    for (; k < 200; k++) {
      const c = copyOf(t);
      expect(runBin(['apply', c.proposal, '--execute']).code).toBe(0);
      const r = runBin(['undo', '--vault', c.vault], crashAt(k));
      if (r.code === 0) break;
      const rec = runBin(['recover', c.vault]);
      expect(rec.code, rec.stderr).toBe(0);
      // Rolled back: the applied state. Nothing to recover: the undo had committed (the pre-state)
      // or had not begun (the applied state).
      if (/rolled back/.test(rec.stdout)) expect(state(c.vault), `undo crashed at ${k}, rolled back`).toEqual(post);
      else
        expect(
          [pre, post].some((s) => JSON.stringify([...s]) === JSON.stringify([...state(c.vault)])),
          `undo crashed at ${k}`,
        ).toBe(true);
      const f = copyOf(t);
      expect(runBin(['apply', f.proposal, '--execute']).code).toBe(0);
      runBin(['undo', '--vault', f.vault], crashAt(k));
      const fwd = runBin(['recover', f.vault, '--forward']);
      expect(fwd.code, fwd.stderr).toBe(0);
      if (/finished/.test(fwd.stdout)) expect(state(f.vault), `undo crashed at ${k}, finished`).toEqual(pre);
    }
    expect(k).toBeGreaterThan(5);
  }, 600_000);

  it('recover killed at every write step: running recover again still restores the pre-state', () => {
    // Crash the apply in the middle of its file writes, then crash recover at each of its steps.
    let applySteps = 1;
    for (; applySteps < 200; applySteps++)
      if (runBin(['apply', copyOf(t).proposal, '--execute'], crashAt(applySteps)).code === 0) break;
    const mid = Math.max(2, applySteps - 4);
    for (let j = 1; j < 100; j++) {
      const c = copyOf(t);
      runBin(['apply', c.proposal, '--execute'], crashAt(mid));
      const r = runBin(['recover', c.vault], crashAt(j));
      const final = runBin(['recover', c.vault]);
      expect(final.code).toBe(0);
      expect(state(c.vault), `recover crashed at ${j}`).toEqual(pre);
      if (r.code === 0) break;
    }
  }, 600_000);
});
