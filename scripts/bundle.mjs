// Bundles the CLI: startup time matters for hooks and guard (BENCHMARKS.md). Commands stay lazy
// through code splitting; the library (dist/index.js) stays unbundled tsc output.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist/bin', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: "import { createRequire as __memlintCreateRequire } from 'node:module'; const require = __memlintCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
