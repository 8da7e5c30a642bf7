/**
 * Which item kinds consolidate proposes (a person can approve them) and which it only shows as
 * info. A kind is proposed by default only when its items, labelled by a reader who had not seen
 * the code, were worth acting on at least PROPOSE_AT of the time; `consolidate.propose` in the
 * config overrides per kind.
 */
import type { Config } from '../config/schema.js';
import type { ItemKind } from '../proposal/schema.js';

export const PROPOSE_AT = 0.8;

/**
 * Measured precision per kind (useful / labelled) and where it was measured; null when too few
 * items were labelled to say. docs/proposal-precision.md has the labels and the method.
 */
export const MEASURED: Record<
  ItemKind,
  { readonly precision: number | null; readonly labelled: number; readonly note: string }
> = {
  'index-overflow': {
    precision: 1,
    labelled: 4,
    note: 'independent corpus labels, session 6: 4 of 4 (session 4, before the split kept parent headings and moved link lists last: 2 of 5)',
  },
  'dangling-link': {
    precision: 0.87,
    labelled: 15,
    note: 'independent corpus labels, session 6: 13 of 15 (the 2 noise items, links to files a README says are kept out of the repository, are info since); session 4: 15 of 15',
  },
  orphan: {
    precision: 0.92,
    labelled: 13,
    note: 'independent corpus labels, session 6: 12 of 13 proposed orphans (session 4, before notes whose own text says they are stale were held back: 12 of 22)',
  },
  'dead-reference': {
    precision: null,
    labelled: 0,
    note: 'not measured: no corpus vault has a project root; its action changes nothing (keep)',
  },
  'near-duplicate': {
    precision: 1,
    labelled: 2,
    note: 'independent corpus labels, session 6: 2 of 2, session 4: 2 of 2 (the merge carries the sentences the kept note lacks)',
  },
  contradiction: {
    precision: 0.18,
    labelled: 11,
    note: 'independent corpus labels, session 6: 2 of 11 (session 4: 0 of 10)',
  },
  incident: {
    precision: 0.9,
    labelled: 10,
    note: 'independent corpus labels, session 6: 9 of 10 (the noise item, a note its front matter marks superseded, and decision/feedback notes are no longer proposed); session 4: 10 of 10',
  },
  'store-overflow': {
    precision: 0,
    labelled: 1,
    note: 'independent corpus labels, session 6: 0 of 1 (moved the two oldest entries, basic environment facts, to save 89 characters)',
  },
  'not-memory': {
    precision: 0.05,
    labelled: 20,
    note: 'independent corpus labels, session 6: 1 of 20 (session 4: 6 of 20)',
  },
};

/**
 * Kinds proposed when the config says nothing: those at PROPOSE_AT or above on the latest independent
 * labels (session 6, docs/proposal-precision.md). Within a proposed kind a stage can still mark an item info
 * (a dated or superseded orphan, a dangling link a README documents). store-overflow (0 of 1: age is not
 * value, and moving entries out of a store takes them out of what Hermes loads), contradiction, not-memory
 * and dead-reference (unmeasured) are info until they measure at PROPOSE_AT.
 */
const DEFAULT_PROPOSED: ReadonlySet<ItemKind> = new Set([
  'dangling-link',
  'near-duplicate',
  'index-overflow',
  'orphan',
  'incident',
]);

export function isProposed(kind: ItemKind, config: Pick<Config, 'consolidate'>): boolean {
  return config.consolidate.propose[kind] ?? DEFAULT_PROPOSED.has(kind);
}

/** Why an item of this kind is info only (when the config does not propose it). */
export function infoReason(kind: ItemKind, config: Pick<Config, 'consolidate'>): string {
  if (config.consolidate.propose[kind] === false) return `consolidate.propose.${kind} is false in the config`;
  const m = MEASURED[kind];
  return m.precision === null
    ? `${kind} items are not proposed by default: precision not measured (${m.note}); set consolidate.propose.${kind}: true to propose them`
    : `${kind} items are not proposed by default: ${Math.round(m.precision * 100)}% of ${m.labelled} labelled corpus items were worth acting on (< ${PROPOSE_AT * 100}%); set consolidate.propose.${kind}: true to propose them`;
}
