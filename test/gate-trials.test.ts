// The post-state gate judges each set of items once (src/apply/gate.ts): its bisection meets the same set again
// (the whole plan is its first group; after the first half of a failing group passes, the second half's trial is
// the failing group's), and consolidate's next round (withhold.ts) plans the items the last round kept. Counted,
// with the verdict checked against what the gate must refuse: exactly the one bad item, whatever its place.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gatedPlan } from '../src/apply/gate.js';
import { planApply, type Plan } from '../src/apply/plan.js';
import { withholdRefused } from '../src/apply/withhold.js';
import { buildCatalog } from '../src/catalog/build.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import { fileSha } from '../src/proposal/refs.js';
import type { Proposal, ProposalItem } from '../src/proposal/schema.js';
import { snapshot, startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';
import type { Vault } from '../src/vault/model.js';
import { tempDir } from './helpers/run.js';

const root = tempDir();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const N = 16;
/** N notes, each linked from the index by a misspelled stem (consolidate proposes N relinks), and one inline rule. */
function fixture(): { vault: Vault; proposal: Proposal } {
  const dir = join(root, `v${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  const index = ['# Memory', '', '- **Never deploy on a Friday without a second reviewer.**'];
  for (let i = 0; i < N; i++) {
    const stem = `topic-${i}-guide`;
    writeFileSync(
      join(dir, `${stem}.md`),
      `---\nname: ${stem}\ndescription: guide ${i}\ntype: project\n---\nThe guide number ${i}.\n`,
    );
    index.push(`- see also [[topic-${i}-guid]] — the guide number ${i}`);
  }
  writeFileSync(join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  const vault = loadVault(dir, { config: DEFAULT_CONFIG });
  return { vault, proposal: consolidateVault(vault, { now: new Date('2026-01-01T00:00:00Z') }) };
}

/** An item that drops the inline rule (its text is nowhere else): the gate must refuse it. */
const bad = (vault: Vault): ProposalItem => ({
  id: 'bad-0001',
  kind: 'index-overflow',
  notes: [{ path: 'MEMORY.md', sha256: fileSha(vault.byPath.get('MEMORY.md')) }],
  evidence: {},
  suggestion: 'fix-index',
  action: {
    type: 'fix-index',
    file: 'MEMORY.md',
    remove: [{ line: 3, text: '- **Never deploy on a Friday without a second reviewer.**' }],
    add: [],
  },
  decision: 'approve',
});

function counted<T>(run: () => T): [T, Record<string, number>] {
  startCounting();
  try {
    const out = run();
    return [out, snapshot()];
  } finally {
    stopCounting();
  }
}

/** Trials of the gate's halving of `n` items with the bad one at `bad`: plain, and with sets met again skipped. */
function halving(n: number, bad: number): { plain: number; memo: number } {
  const run = (memo: boolean): number => {
    const accepted = new Set<number>();
    const seen = new Set<string>();
    let trials = 0;
    const tryGroup = (group: number[]): void => {
      if (group.length === 0) return;
      const trial = [...accepted, ...group].sort((a, b) => a - b);
      if (!memo || !seen.has(trial.join())) trials++;
      seen.add(trial.join());
      if (!trial.includes(bad)) {
        for (const i of group) accepted.add(i);
        return;
      }
      if (group.length === 1) return;
      const half = Math.ceil(group.length / 2);
      tryGroup(group.slice(0, half));
      tryGroup(group.slice(half));
    };
    tryGroup([...Array(n).keys()]);
    return trials;
  };
  return { plain: run(false), memo: run(true) };
}

const approved = (p: Proposal, at: number, vault: Vault): Proposal => {
  const items: ProposalItem[] = p.items.map((i) => ({ ...i, decision: 'approve' }));
  items.splice(at, 0, bad(vault));
  return { ...p, items };
};

describe('the post-state gate judges each set of items once', () => {
  it('refuses exactly the bad item wherever it stands, planning and judging fewer trials than plain halving', () => {
    const totals = { memo: 0, plain: 0 };
    for (const at of [0, 5, 11, N]) {
      const { vault, proposal } = fixture();
      expect(proposal.items.filter((i) => i.action.type === 'relink')).toHaveLength(N);
      const [plan, counts] = counted(() => gatedPlan(approved(proposal, at, vault), vault, 'test').plan);
      const refused = plan.items.filter((o) => o.status === 'refused').map((o) => o.id);
      expect(refused, `bad item at ${at}`).toEqual(['bad-0001']);
      expect(plan.items.filter((o) => o.status === 'run')).toHaveLength(N);
      // The gate's halving, modelled (a trial fails exactly when it holds the bad item, as here): a set met again is
      // not tried again, and the first group (the whole plan's changes) is judged once. Plain halving tries more.
      const model = halving(N + 1, at);
      expect(counts['apply.gateTrials'], `bad item at ${at}`).toBe(model.memo);
      expect(counts['apply.gateJudged'], `bad item at ${at}`).toBe(model.memo);
      totals.memo += model.memo;
      totals.plain += model.plain + 1;
      // Each path is checked on the file system once per gated plan (MEMORY.md and the 16 notes).
      expect(counts['apply.pathChecks'], `bad item at ${at}`).toBe(N + 1);
      // And each item's action is run once per gated plan, not once per trial.
      expect(counts['apply.actionsRun'], `bad item at ${at}`).toBe(N + 1);
    }
    // Judged in all: 11 + 8 + 7 + 5 here, against 12 + 10 + 10 + 10 (the whole plan, then every trial).
    expect(totals).toEqual({ memo: 31, plain: 42 });
  });

  it("consolidate's second round does not judge again the items the first round kept", () => {
    const { vault, proposal } = fixture();
    const items = [...proposal.items];
    items.splice(7, 0, bad(vault));
    const [out, counts] = counted(() => withholdRefused({ ...proposal, items }, vault));
    expect(out.items.map((i) => i.id)).toEqual(proposal.items.map((i) => i.id));
    expect((out.summary?.withheld as { id: string }[]).map((w) => w.id)).toEqual(['bad-0001']);
    // Round 1: the whole plan and its trials; round 2 plans exactly the items round 1 kept: no new verdict.
    const other = fixture().vault;
    const [, first] = counted(() =>
      gatedPlan({ ...proposal, items: items.map((i) => ({ ...i, decision: 'approve' as const })) }, other, 't'),
    );
    expect(counts['apply.gateJudged']).toBe(first['apply.gateJudged']);
  });

  it('plans a file with the same text as the same bytes object, so the gate finds its parse, findings and links', () => {
    const { vault, proposal } = fixture();
    const all = approved(proposal, 0, vault);
    const some = { ...all, items: all.items.map((i, n) => (n % 2 ? { ...i, decision: 'reject' as const } : i)) };
    const [[a, b, c], counts] = counted(
      () => [all, some, all].map((p) => planApply(p, vault, 'test')) as [Plan, Plan, Plan],
    );
    const after = (plan: Plan, path: string): Uint8Array | undefined =>
      plan.changes.find((ch) => ch.path === path)?.after?.bytes;
    expect(after(a, 'MEMORY.md')).toBeDefined();
    expect(after(b, 'MEMORY.md')).not.toBe(after(a, 'MEMORY.md'));
    // The third plan's MEMORY.md, the first's text, gets the first's bytes object: nothing encoded again.
    expect(after(c, 'MEMORY.md')).toBe(after(a, 'MEMORY.md'));
    expect(counts['apply.plannedEncodes']).toBe(2);
  });

  it('builds the regenerated catalog once per set of notes it lists, and gives it one bytes object', () => {
    const { vault: first, proposal } = fixture();
    writeFileSync(join(first.root, 'CATALOG.md'), buildCatalog(first));
    const vault = loadVault(first.root, { config: DEFAULT_CONFIG });
    // A plan that deletes a note changes the catalog: the bad item's index edit aside, retire the first note.
    const note = vault.notes[0]!;
    const retire: ProposalItem = {
      id: 'retire-0001',
      kind: 'orphan',
      notes: [{ path: note.path, sha256: fileSha(note) }],
      evidence: {},
      suggestion: 'retire',
      action: { type: 'retire', retire: [note.path] },
      decision: 'approve',
    };
    const base = approved(proposal, 0, vault);
    const plans = [
      { ...base, items: [...base.items, retire] },
      base,
      { ...base, items: [...base.items.slice(2), retire] },
    ];
    const [catalogs, counts] = counted(() =>
      plans.map((p) => planApply(p, vault, 'test').changes.find((c) => c.path === 'CATALOG.md')?.after?.bytes),
    );
    expect(catalogs[0]).toBeDefined();
    expect(catalogs[1]).toBeUndefined(); // no note gone: the catalog on disk is the one it would write
    expect(catalogs[2]).toBe(catalogs[0]);
    expect(new TextDecoder().decode(catalogs[0])).not.toContain(note.path);
    expect(counts['apply.catalogBuilds']).toBe(2);
  });
});
