/**
 * A Hermes store over its budget (fixtures/hermes/over-budget): consolidate proposes a plan that
 * makes it fit with headroom (exact duplicates, near duplicates merged without losing a sentence,
 * then entries moved byte for byte to the store's archive, rules and preferences last); approving it
 * all passes apply's validation and the post-state gate, loses no sentence, and undo restores the bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { loadVault } from '../src/vault/load.js';
import { approveAll, editProposal } from './helpers/proposal.js';
import { copyToTemp, runMain } from './helpers/run.js';
import { expectSameTree, snapshotTree } from './helpers/snapshot.js';

const FIXTURE = join(process.cwd(), 'fixtures', 'hermes', 'over-budget');
const noState = (m: Map<string, string>): Map<string, string> =>
  new Map([...m].filter(([k]) => !k.startsWith('.memlint')));
const entriesOf = (text: string): string[] =>
  text
    .split('\n§\n')
    .map((e) => e.trim())
    .filter(Boolean);
const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

interface Item {
  id: string;
  kind: string;
  action: { type: string; retire?: string[]; into?: string; body?: string; to?: string };
  evidence: Record<string, unknown>;
  decision: string;
}

async function propose(vault: string): Promise<{ file: string; items: Item[] }> {
  const file = join(vault, '..', 'p.json');
  const r = await runMain(['consolidate', vault, '--out', file]);
  expect(r.code, r.stderr).toBe(0);
  return {
    file,
    items: (JSON.parse(JSON.stringify((await import('yaml')).parse(readFileSync(file, 'utf8')))) as { items: Item[] })
      .items,
  };
}

describe('store-overflow: a Hermes store over budget gets a plan that makes it fit', () => {
  it('proposes duplicates, a merge that keeps every sentence, and a move to the archive that spares rules and preferences', async () => {
    const vault = copyToTemp(FIXTURE);
    const { items } = await propose(vault);
    const store = items.filter((i) => i.kind === 'store-overflow');
    const steps = store.map((i) => i.evidence.step);
    expect(steps.sort()).toEqual(['exact duplicates', 'move to the archive', 'near duplicates']);
    const merge = store.find((i) => i.evidence.step === 'near duplicates')!;
    expect(merge.action).toMatchObject({ type: 'merge', into: 'MEMORY.md#5', retire: ['MEMORY.md#6'] });
    // The retired entry's sentence the kept one lacks is in the merged text.
    expect(merge.action.body).toContain('Takes ten minutes.');
    const move = store.find((i) => i.evidence.step === 'move to the archive')!;
    expect(move.action.to).toBe('MEMORY-archive.md');
    // Entry 1 is a rule (NEVER …), entry 3 a preference (the user wants …): older, but not moved.
    expect(move.action.retire).not.toContain('MEMORY.md#1');
    expect(move.action.retire).not.toContain('MEMORY.md#3');
    expect(move.action.retire).toEqual(['MEMORY.md#4', 'MEMORY.md#7']);
    // Sizes in Hermes' units; the last step fits with headroom.
    expect(move.evidence).toMatchObject({ maxChars: 2200, target: 1980, fits: true });
    expect(move.evidence.charsAfter as number).toBeLessThanOrEqual(1980);
  });

  it('approving everything: apply accepts every item, the store fits, no sentence is lost, undo is byte-identical', async () => {
    const vault = copyToTemp(FIXTURE);
    const original = readFileSync(join(vault, 'MEMORY.md'), 'utf8');
    const before = snapshotTree(vault, { mtime: 'ms' });
    const { file } = await propose(vault);
    approveAll(file);
    const r = await runMain(['apply', file, '--execute']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/: refused/);
    const after = loadVault(vault, { config: DEFAULT_CONFIG });
    const mem = after.stores.find((s) => s.file === 'MEMORY.md')!;
    expect(mem.chars).toBeLessThanOrEqual(1980);
    const check = await runMain(['check', vault, '--format', 'json']);
    expect(JSON.parse(check.stdout).findings.filter((f: { severity: string }) => f.severity === 'error')).toEqual([]);
    // Every moved entry is in the archive byte for byte; every sentence of the store is still in the vault.
    const archive = readFileSync(join(vault, 'MEMORY-archive.md'), 'utf8');
    expect(entriesOf(archive)).toEqual([entriesOf(original)[3], entriesOf(original)[6]]);
    const now = norm(`${readFileSync(join(vault, 'MEMORY.md'), 'utf8')}\n${archive}`);
    const sentences = entriesOf(original)
      .flatMap((e) => e.split(/(?<=[.;])\s+/))
      .map(norm);
    expect(sentences.filter((s) => !now.includes(s.replace(/[.;]$/, '')))).toEqual([]);
    const u = await runMain(['undo', '--vault', vault]);
    expect(u.code, u.stderr).toBe(0);
    expectSameTree(noState(snapshotTree(vault, { mtime: 'ms' })), noState(before));
  });

  it('appends to an archive that exists, keeping every byte it held', async () => {
    const vault = copyToTemp(FIXTURE);
    writeFileSync(join(vault, 'MEMORY-archive.md'), 'An entry archived by hand, no newline at the end');
    const { file, items } = await propose(vault);
    expect(items.find((i) => i.evidence.step === 'move to the archive')!.evidence.archiveExists).toBe(true);
    editProposal(file, (list) =>
      list.forEach((i) => {
        if (i.evidence.step === 'move to the archive') i.decision = 'approve';
      }),
    );
    const r = await runMain(['apply', file, '--execute']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const archive = readFileSync(join(vault, 'MEMORY-archive.md'), 'utf8');
    expect(archive.startsWith('An entry archived by hand, no newline at the end\n§\n')).toBe(true);
    expect(entriesOf(archive)).toHaveLength(3);
  });

  it('refuses the move when the archive appeared after the proposal was written', async () => {
    const vault = copyToTemp(FIXTURE);
    const { file } = await propose(vault);
    writeFileSync(join(vault, 'MEMORY-archive.md'), 'written meanwhile\n');
    editProposal(file, (list) =>
      list.forEach((i) => {
        if (i.evidence.step === 'move to the archive') i.decision = 'approve';
      }),
    );
    // --vault: past the whole-proposal guard (the set of files changed), to the item's own freshness check.
    const r = await runMain(['apply', file, '--execute', '--vault', vault]);
    expect(r.stdout + r.stderr).toMatch(/refused[\s\S]*stale: MEMORY-archive\.md changed/);
    expect(readFileSync(join(vault, 'MEMORY-archive.md'), 'utf8')).toBe('written meanwhile\n');
  });

  it('a near duplicate holding a table row: a merge carries the row into the kept entry (nothing is lost)', async () => {
    const vault = copyToTemp(FIXTURE);
    const text = readFileSync(join(vault, 'MEMORY.md'), 'utf8').split('\n§\n');
    // Entry 6: entry 5's first clause and a table row (not a sentence), still a near duplicate of entry 5.
    text[5] = `${text[4]!.split('; it reads')[0]}.\n| flag | ops/deploy.sh --dry-run |`;
    writeFileSync(join(vault, 'MEMORY.md'), text.join('\n§\n'));
    const { file, items } = await propose(vault);
    for (const m of items.filter(
      (i) =>
        i.kind === 'store-overflow' &&
        i.evidence.step === 'near duplicates' &&
        i.action.retire?.includes('MEMORY.md#6'),
    )) {
      expect(m.action.body).toContain('| flag | ops/deploy.sh --dry-run |');
    }
    // Only this stage's items (the near-duplicate stage's own merge of the pair is a separate matter: notes/s11h.md).
    editProposal(file, (list) =>
      list.forEach((i) => {
        if (i.kind === 'store-overflow') i.decision = 'approve';
      }),
    );
    const r = await runMain(['apply', file, '--execute']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const left = `${readFileSync(join(vault, 'MEMORY.md'), 'utf8')}\n${readFileSync(join(vault, 'MEMORY-archive.md'), 'utf8')}`;
    expect(left).toContain('ops/deploy.sh --dry-run');
  });
});
