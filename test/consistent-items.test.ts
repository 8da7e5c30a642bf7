/**
 * Issue 11, consistent item sets: consolidate never emits two items whose actions conflict, so any
 * subset a person approves is consistent: apply refuses none of it and the post-state gate finds no
 * new error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConflicts } from '../src/consolidate/consolidate.js';
import type { ItemDraft } from '../src/consolidate/stage.js';
import { editProposal } from './helpers/proposal.js';
import { copyToTemp, runMain } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
// A Hermes store over budget: its store-overflow merge and the near-duplicate stage's merge name the same two entries.
const HERMES = join(process.cwd(), 'fixtures', 'hermes', 'over-budget');

describe('consistent item sets', () => {
  it('an orphan line for a note another item retires is dropped; a note is retired or merged by one item only', () => {
    const draft = (kind: ItemDraft['kind'], action: ItemDraft['action'], paths: string[]): ItemDraft => ({
      kind,
      paths,
      evidence: {},
      suggestion: 'review',
      action,
    });
    const drafts: ItemDraft[] = [
      draft('orphan', { type: 'fix-index', file: 'MEMORY.md', remove: [], add: ['- [X](x.md)'] }, ['x.md']),
      draft('incident', { type: 'retire', retire: ['x.md'] }, ['x.md']),
      draft('near-duplicate', { type: 'merge', into: 'a.md', retire: ['b.md'] }, ['a.md', 'b.md']),
      draft('incident', { type: 'retire', retire: ['b.md'] }, ['b.md']),
    ];
    const summary: Record<string, unknown> = {};
    resolveConflicts(drafts, summary);
    expect(drafts.map((d) => `${d.kind}:${d.action.type}`)).toEqual(['incident:retire', 'near-duplicate:merge']);
    expect(drafts[0]!.evidence.alsoOrphan).toBe(true);
    expect(summary.withheld).toEqual([
      { kind: 'incident', notes: ['b.md'], reason: 'b.md already acted on by a near-duplicate item' },
    ]);
  });

  it.each([
    ['demo vault', DEMO],
    ['Hermes store over budget', HERMES],
  ] as const)(
    '%s, every kind proposed: every subset tried (each item alone, all, and random halves) is accepted whole by apply',
    async (_n, src) => {
      const vault = copyToTemp(src);
      writeFileSync(
        join(vault, 'memlint.config.json'),
        `${JSON.stringify({ consolidate: { propose: { 'index-overflow': true, orphan: true, incident: true, contradiction: true, 'dead-reference': true, 'not-memory': true, 'store-overflow': true } } })}\n`,
      );
      const file = join(vault, '..', 'p.yaml');
      expect((await runMain(['consolidate', vault, '--out', file])).code).toBe(0);
      let ids: string[] = [];
      editProposal(file, (items) => {
        ids = items.map((i) => i.id as string);
      });
      expect(ids.length).toBeGreaterThan(2);
      let seed = 11;
      const rand = (): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const subsets = [
        ids,
        ...ids.map((id) => [id]),
        ...Array.from({ length: 6 }, () => ids.filter(() => rand() < 0.5)),
      ];
      for (const subset of subsets) {
        editProposal(file, (items) =>
          items.forEach((i) => {
            i.decision = subset.includes(i.id) ? 'approve' : 'pending';
          }),
        );
        const r = await runMain(['apply', file]);
        expect(r.stdout, subset.join(' ')).not.toMatch(/: refused/);
        expect(r.code, `${subset.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
      }
    },
    600_000,
  );
});
