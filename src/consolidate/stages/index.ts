/** The stages in the order they run. Each has its own fixtures under fixtures/consolidate/<id>/. */
import type { Stage } from '../stage.js';
import contradictions from './contradictions.js';
import deadReferences from './dead-references.js';
import incidents from './incidents.js';
import nearDuplicates from './near-duplicates.js';
import notMemory from './not-memory.js';
import { indexOverflow } from './index-overflow.js';
import { storeOverflow } from './store-overflow.js';
import { danglingLinks, orphans } from './vault-items.js';

export const STAGES: readonly Stage[] = [
  indexOverflow,
  danglingLinks,
  orphans,
  deadReferences,
  nearDuplicates,
  contradictions,
  incidents,
  notMemory,
];

/** A Hermes store has no index, catalog or links: its entries are compared and checked. */
export const HERMES_STAGES: readonly Stage[] = [
  storeOverflow,
  deadReferences,
  nearDuplicates,
  contradictions,
  notMemory,
];
