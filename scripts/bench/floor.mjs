// The floor: a node process that only lists and reads every note, nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let bytes = 0;
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.md')) bytes += readFileSync(p, 'utf8').length;
  }
};
walk(process.argv[2]);
process.stdout.write(`${bytes}\n`);
