/** A seeded generator of numbers in [0, 1) (a linear congruential one): property tests that must replay exactly. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}
