/**
 * The one similarity formula consolidate, guard and the Hermes rules share, and its named
 * thresholds. Similarity is over word-bigram shingle sets (text.ts): the larger of Jaccard and, when
 * the smaller set is big enough for it to mean something, containment (a short note inside a long one).
 */
import { containment, intersectionSize, intersectionWith, jaccard } from './text.js';

export const THRESHOLDS = {
  /** At or above: the same note (guard refuses; consolidate proposes a merge; the Hermes rule warns). Config `guard.refuse` overrides it for guard. */
  duplicate: 0.6,
  /** Containment at or above (with Jaccard below `duplicate`): one Hermes entry says what another already holds, close enough to merge when a store is over budget. */
  entryContained: 0.85,
  /** At or above: guard lists the note as a match (config `guard.show`). */
  show: 0.35,
  /** At or above: close enough to read both notes' sentences for a contradiction. */
  related: 0.2,
  /** Below: not worth a look at all. */
  floor: 0.1,
  /** A MinHash estimate below this is not a candidate. */
  candidate: 0.05,
  /** Containment counts only when the smaller set has at least this many shingles. */
  minShinglesForContainment: 6,
} as const;

export interface Similarity {
  readonly jaccard: number;
  readonly containment: number;
  /** max(jaccard, containment): the number compared with the thresholds. */
  readonly score: number;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Similarity of two sorted, distinct shingle-hash sets, rounded to 3 decimals. */
export function similarity(a: Uint32Array, b: Uint32Array): Similarity {
  return fromIntersection(a, b, intersectionSize(a, b));
}

/** `similarity(a, b)` for one `a` against many `b` (guard's draft against its candidates): `a` is prepared once (`intersectionWith`). */
export function similarityTo(a: Uint32Array): (b: Uint32Array) => Similarity {
  const inter = intersectionWith(a);
  return (b) => fromIntersection(a, b, inter(b));
}

function fromIntersection(a: Uint32Array, b: Uint32Array, inter: number): Similarity {
  const j = jaccard(a, b, inter);
  const c = Math.min(a.length, b.length) >= THRESHOLDS.minShinglesForContainment ? containment(a, b, inter) : j;
  return { jaccard: round(j), containment: round(c), score: round(Math.max(j, c)) };
}
