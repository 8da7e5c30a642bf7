// dist/cli.js (the bin) loads the bundle; regenerates the config JSON Schema from the zod schema.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

// dist/ is CommonJS (the bin and the bundle start faster without the ESM loader, which also pulls in
// fs/promises and readline); the library in dist/lib/ is ESM. The bin path is the contract's.
writeFileSync('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
writeFileSync('dist/lib/package.json', `${JSON.stringify({ type: 'module' })}\n`);
writeFileSync('dist/cli.js', "#!/usr/bin/env node\n'use strict';\nrequire('./bin/load.cjs');\n");
chmodSync('dist/cli.js', 0o755);
const { configSchema } = await import('../dist/lib/config/schema.js');
mkdirSync('schema', { recursive: true });
const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
schema.title = 'memlint configuration';
writeFileSync('schema/memlint.config.schema.json', `${JSON.stringify(schema, null, 2)}\n`);

// A CommonJS entry for require('memlint'): each function loads the ESM library on first call.
const CJS_FUNCTIONS = ['check', 'consolidate', 'planApply', 'guard'];
writeFileSync(
  'dist/lib/index.cjs',
  [
    "'use strict';",
    "// require('memlint'): the library is ESM; these async functions load it on first call.",
    "const load = () => import('./index.js');",
    ...CJS_FUNCTIONS.map((f) => `exports.${f} = (...args) => load().then((m) => m.${f}(...args));`),
    '',
  ].join('\n'),
);
writeFileSync(
  'dist/lib/index.d.cts',
  [
    "export type { CheckReport, ApplyPlan, PlannedChange, GuardReport, LibraryOptions, Proposal, GuardMatch, Finding, Config } from './index.js';",
    ...CJS_FUNCTIONS.map((f) => `export declare const ${f}: typeof import('./index.js').${f};`),
    '',
  ].join('\n'),
);
