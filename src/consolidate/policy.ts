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
  'index-overflow': { precision: 0.4, labelled: 5, note: 'independent corpus labels, session 4 (2 of 5: splits cut subsections from their headings, move the only links to notes, split an index under both limits)' },
  'dangling-link': { precision: 1, labelled: 15, note: 'independent corpus labels, session 4' },
  orphan: { precision: 0.55, labelled: 22, note: 'independent corpus labels, session 4, undated orphans (dated or superseded ones: 4 of 29); notes whose own text says they are stale or finished got lines' },
  'dead-reference': { precision: null, labelled: 0, note: 'not measured: no corpus vault has a project root; its action changes nothing (keep)' },
  'near-duplicate': { precision: 1, labelled: 2, note: 'independent corpus labels, session 4: 2 of 2 (one after an edit; the merge that retired an entry holding other facts is fixed)' },
  contradiction: { precision: 0, labelled: 10, note: 'independent corpus labels, session 4 (0 of 10)' },
  incident: { precision: 1, labelled: 10, note: 'independent corpus labels, session 4: 10 of 10, on weak evidence, mostly one vault: kept info until a larger sample' },
  'store-overflow': { precision: 1, labelled: 1, note: 'independent corpus labels, session 4: one info item (oldest entries; the store is over budget but the entries named are the important ones)' },
  'not-memory': { precision: 0.3, labelled: 20, note: 'independent corpus labels, session 4 (6 of 20)' },
};

/**
 * Kinds proposed when the config says nothing. Within a proposed kind a stage can still mark an item
 * info (a store's oldest entries). near-duplicate is proposed on a small sample (2 of 2): its merge
 * retires only notes whose text the kept one holds, into the holding folder. store-overflow's plan loses
 * no byte from the vault (duplicates, merges that keep every sentence, moves to the store's archive). index-overflow and
 * orphan measured 0.40 and 0.55 (independent labels, session 4): info until they reach PROPOSE_AT.
 */
const DEFAULT_PROPOSED: ReadonlySet<ItemKind> = new Set(['dangling-link', 'near-duplicate', 'store-overflow']);

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
