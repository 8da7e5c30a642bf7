import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const jsyaml = require('../../node_modules/markdownlint-cli2/node_modules/js-yaml');
const blocks = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.md')) {
      const t = readFileSync(p, 'utf8');
      const m = /^---\n([\s\S]*?)\n---/.exec(t);
      if (m) blocks.push(m[1]);
    }
  }
};
walk(process.argv[2]);
for (const [name, fn] of [
  ['yaml.parseDocument', (b) => parseDocument(b, { uniqueKeys: true }).toJS({ maxAliasCount: 100 })],
  ['yaml.parse', (b) => parse(b, { maxAliasCount: 100 })],
  ['js-yaml.load', (b) => jsyaml.load(b)],
]) {
  for (let rep = 0; rep < 2; rep++) {
    const t = performance.now();
    let ok = 0;
    for (const b of blocks) {
      try {
        fn(b);
        ok++;
      } catch {
        /* counted as not ok */
      }
    }
    if (rep === 1)
      console.log(
        name,
        blocks.length,
        'blocks',
        (performance.now() - t).toFixed(0),
        'ms',
        (((performance.now() - t) * 1000) / blocks.length).toFixed(1),
        'µs/block',
        ok,
        'ok',
      );
  }
}
