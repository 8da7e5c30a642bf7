// `npm pack` / `npm publish`: the tarball's package.json carries no `prepare` script (it builds from
// sources that are not in the tarball, and npm warns about it on every install of the tarball).
// prepack: `disable` moves it aside; postpack: `enable` puts it back. Both are idempotent.
import { readFileSync, writeFileSync } from 'node:fs';

const mode = process.argv[2];
const text = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(text);
const [from, to] =
  mode === 'disable' ? ['prepare', '//prepare'] : mode === 'enable' ? ['//prepare', 'prepare'] : [null, null];
if (!from) throw new Error('usage: node scripts/pack-scripts.mjs disable|enable');
if (pkg.scripts?.[from] !== undefined) {
  // Rebuilt key by key so that the order (and so the diff) stays the same.
  pkg.scripts = Object.fromEntries(Object.entries(pkg.scripts).map(([k, v]) => [k === from ? to : k, v]));
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
}
