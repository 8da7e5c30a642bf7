/** Kept equal to package.json's version by test/registry.test.ts. */
export const VERSION = '0.1.0';

declare const __MEMLINT_BUILD_ID__: string | undefined;

/**
 * What caches are keyed by: the version, and for the bundled binary a hash of the sources it was
 * built from, so that a build with changed rules or parsers never reads a cache an older build of
 * the same version wrote (a git checkout, `npm run build` while developing).
 */
export const CACHE_KEY: string =
  typeof __MEMLINT_BUILD_ID__ === 'string' ? `${VERSION}+${__MEMLINT_BUILD_ID__}` : VERSION;
