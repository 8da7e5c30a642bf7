/**
 * What differs between CI (`CI=true`, set by .ci/run's caller) and a developer's machine, in one place.
 *
 * - A test that needs a resource (the corpus, Chromium) is skipped locally when it is missing, but in CI a
 *   missing resource FAILS: a green CI must never mean "the corpus tests did not run".
 * - Property tests (fast-check) run their full count in CI and a tenth of it locally.
 */
export const inCI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * True when the test should be skipped because `what` is missing; throws in CI instead (the test file then fails
 * with this message). Use as `it.skipIf(missing(present, 'what'))`.
 */
export function missing(present: boolean, what: string): boolean {
  if (present) return false;
  if (inCI) throw new Error(`CI=true but ${what} is missing: these tests must run in CI, not be skipped`);
  return true;
}

/**
 * The number of runs for one fast-check property: `ciRuns` (the count the property was designed for) in CI, a tenth of
 * it locally. MEMLINT_PROPERTY_RUNS=N scales every property as if the base were N instead of 1,000 (1000 = the CI
 * counts, 100 = the local default).
 */
export function propertyRuns(ciRuns: number): number {
  const base = Number(process.env.MEMLINT_PROPERTY_RUNS ?? (inCI ? 1000 : 100));
  if (!Number.isFinite(base) || base <= 0)
    throw new Error(`MEMLINT_PROPERTY_RUNS=${process.env.MEMLINT_PROPERTY_RUNS}: a positive number`);
  return Math.max(10, Math.round((ciRuns * base) / 1000));
}
