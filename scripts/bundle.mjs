// Bundles the CLI into one CommonJS file run through a V8 code cache (scripts/bin-loader.cjs): every
// hook and guard call is a new process, and this start-up path measured fastest (BENCHMARKS.md):
// guard at 1k notes 123 ms as ESM chunks, 114 ms as one CommonJS bundle, 101 ms with the code cache.
// The SDKs (model judges, MCP) and zod, which they share with memlint, stay in node_modules and are
// required only by the commands that use them. The library (dist/lib/index.js) stays unbundled tsc output.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Caches are keyed by the version and this hash of the sources (src/version.ts, CACHE_KEY).
const sources = readdirSync('src', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .sort();
const buildHash = createHash('sha1');
for (const f of sources)
  buildHash
    .update(f)
    .update('\0')
    .update(readFileSync(join('src', f)))
    .update('\0');
const buildId = buildHash.digest('hex').slice(0, 12);

rmSync('dist/bin', { recursive: true, force: true });
// The CLI, and the worker `check` starts on a large vault for the rules that read one file (src/rules/parallel.ts).
for (const [entry, outfile] of [
  ['src/cli.ts', 'dist/bin/memlint.cjs'],
  ['src/rules/parallel-worker.ts', 'dist/bin/parallel-worker.cjs'],
])
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    keepNames: true,
    legalComments: 'none',
    external: ['openai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'zod'],
    // import() becomes require(): a script run through vm.Script has no loader for import(), and
    // every external here ships CommonJS.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__memlintUrl', __MEMLINT_BUILD_ID__: JSON.stringify(buildId) },
    banner: { js: "const __memlintUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
const hash = createHash('sha1').update(readFileSync('dist/bin/memlint.cjs')).digest('hex');
writeFileSync('dist/bin/load.cjs', readFileSync('scripts/bin-loader.cjs', 'utf8').replace('__BUNDLE_HASH__', hash));
