/**
 * Every item consolidate emits passes apply's own validation: the proposal is planned as if every
 * item were approved, with the post-state gate, and an item apply would refuse is withheld (listed in
 * the summary with why) rather than handed to a person who would approve it in vain.
 */
import { gatedPlan } from './gate.js';
import type { Vault } from '../vault/model.js';
import { refKey } from '../proposal/refs.js';
import type { Proposal } from '../proposal/schema.js';

export function withholdRefused(proposal: Proposal, vault: Vault): Proposal {
  let current = proposal;
  const withheld: { id: string; kind: string; notes: string[]; reason: string }[] = [];
  // A withheld item can be what another one leaned on: plan again until nothing more is refused.
  for (let round = 0; round < 3; round++) {
    const approved: Proposal = { ...current, items: current.items.map((i) => ({ ...i, decision: 'approve' })) };
    const { plan } = gatedPlan(approved, vault, 'consolidate');
    const refused = new Map(plan.items.filter((o) => o.status === 'refused').map((o) => [o.id, o.reason ?? 'refused']));
    if (refused.size === 0) break;
    for (const item of current.items) {
      const reason = refused.get(item.id);
      if (reason) withheld.push({ id: item.id, kind: item.kind, notes: item.notes.map((n) => refKey(n)), reason });
    }
    current = { ...current, items: current.items.filter((i) => !refused.has(i.id)) };
  }
  if (withheld.length === 0) return proposal;
  const counts: Record<string, number> = {};
  for (const k of Object.keys((proposal.summary?.items as Record<string, number> | undefined) ?? {}))
    counts[k] = current.items.filter((i) => i.kind === k).length;
  const before = (proposal.summary?.withheld as unknown[] | undefined) ?? [];
  return { ...current, summary: { ...proposal.summary, items: counts, withheld: [...before, ...withheld] } };
}
