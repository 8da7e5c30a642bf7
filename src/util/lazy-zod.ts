/**
 * zod, required on first use. Loading it costs more than `node -e 0` takes to start (BENCHMARKS.md,
 * `memlint guard`), and a rule's option schema is needed only when a config sets that rule's
 * options: the engine uses the rule's `defaults` otherwise. The same pattern as picomatch in vault/roles.ts.
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

export type ZodApi = typeof Zod.z;

let loaded: typeof Zod | undefined;

/** A schema built on first call, with zod loaded then. */
export function lazySchema<S>(build: (z: ZodApi) => S): () => S {
  let schema: S | undefined;
  return () => (schema ??= build((loaded ??= createRequire(import.meta.url)('zod') as typeof Zod).z));
}
