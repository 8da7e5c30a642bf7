// Interleaved A/B of one guard call: CPU (user+sys) medians over N runs, with node -e 0.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const [vaultNew, vaultBase, draftFile, path, runs = '21'] = process.argv.slice(2);
const draft = readFileSync(draftFile);
const cpu = (args) => {
  const r = spawnSync('/usr/bin/time', ['-f', '@cpu %U %S', process.execPath, ...args], { input: draft, stdio: ['pipe', 'ignore', 'pipe'] });
  const m = /@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr.toString());
  return (Number(m[1]) + Number(m[2])) * 1000;
};
const tools = {
  node: ['-e', '0'],
  new: ['/work/wt/s14g2/dist/cli.js', 'guard', vaultNew, '--path', path],
  base: ['/work/wt/s14g2/bench-out/base-dist/cli.js', 'guard', vaultBase, '--path', path],
};
for (const k of ['new', 'base']) for (let i = 0; i < 2; i++) cpu(tools[k]);
const s = { node: [], new: [], base: [] };
for (let i = 0; i < Number(runs); i++) for (const k of Object.keys(tools)) s[k].push(cpu(tools[k]));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const k of Object.keys(s)) console.log(k.padEnd(5), 'median', med(s[k]).toFixed(0), 'mean', mean(s[k]).toFixed(1));
