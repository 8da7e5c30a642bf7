/**
 * The kinds of item a consolidate proposal holds. They live here, below both users, because the config
 * (`consolidate.propose`, keyed by kind) is the lowest layer that names them; `proposal/schema.ts` builds
 * the proposal's schema from the same list.
 */
export const ITEM_KINDS = [
  'near-duplicate',
  'contradiction',
  'dead-reference',
  'incident',
  'orphan',
  'dangling-link',
  'index-overflow',
  'store-overflow',
  'not-memory',
] as const;
