// dist/cli.js (the bin) loads the bundle; regenerates the config JSON Schema from the zod schema.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

writeFileSync('dist/cli.js', "#!/usr/bin/env node\nimport { createRequire } from 'node:module';\n\ncreateRequire(import.meta.url)('./bin/load.cjs');\n");
chmodSync('dist/cli.js', 0o755);
const { configSchema } = await import('../dist/config/schema.js');
mkdirSync('schema', { recursive: true });
const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
schema.title = 'memlint configuration';
writeFileSync('schema/memlint.config.schema.json', `${JSON.stringify(schema, null, 2)}\n`);
