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
export const MEASURED: Record<ItemKind, { readonly precision: number | null; readonly labelled: number; readonly note: string }> = {
  'index-overflow': { precision: 1, labelled: 4, note: 'corpus labels, 2026-12-01' },
  'dangling-link': { precision: 1, labelled: 14, note: 'corpus labels, 2026-12-01' },
  orphan: { precision: 0.62, labelled: 34, note: 'corpus labels, 2026-12-01, all orphans; undated ones (still proposed) were 10 of 11 useful, dated logs (now info) 12 of 23' },
  'dead-reference': { precision: null, labelled: 0, note: 'not measured: no corpus vault has a project root; its action changes nothing (keep)' },
  'near-duplicate': { precision: null, labelled: 1, note: 'one labelled item (useful): too few to say' },
  contradiction: { precision: 0.03, labelled: 36, note: 'corpus labels, 2026-12-01 (the conflict engine is being rewritten)' },
  incident: { precision: 0.31, labelled: 16, note: 'corpus labels, 2026-12-01, before front-matter references were counted' },
  'store-overflow': { precision: 0, labelled: 6, note: 'corpus labels, 2026-12-01, before oldest entries became review-only' },
  'not-memory': { precision: 0.32, labelled: 28, note: 'corpus labels, 2026-12-01' },
};

/**
 * Kinds proposed when the config says nothing. Within a proposed kind a stage can still mark an item
 * info (orphans that are dated logs or superseded; a store's oldest entries). near-duplicate stays
 * proposed although it is not measured: its merge keeps the longer note's text and the retired note
 * in the holding folder.
 */
const DEFAULT_PROPOSED: ReadonlySet<ItemKind> = new Set(['index-overflow', 'dangling-link', 'orphan', 'near-duplicate', 'store-overflow']);

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
