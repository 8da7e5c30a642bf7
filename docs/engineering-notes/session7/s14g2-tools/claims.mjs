import { readFileSync, readdirSync } from 'node:fs';
import v8 from 'node:v8';
const dir = process.argv[2];
const files = readdirSync(dir).filter((f) => /^[0-9a-f]{40}$/.test(f));
const parts = {};
let total = 0, tall = 0;
for (const f of files) {
  const buf = readFileSync(`${dir}/${f}`);
  let c = process.cpuUsage(); const e = v8.deserialize(buf); let d = process.cpuUsage(c); tall += d.user + d.system; total += buf.length;
  const pieces = { sentences: e.sentences, ...e.claims };
  for (const [k, v] of Object.entries(pieces)) {
    const b = v8.serialize(v);
    c = process.cpuUsage(); for (let i = 0; i < 3; i++) v8.deserialize(b); d = process.cpuUsage(c);
    parts[k] ??= { bytes: 0, us: 0, n: 0 };
    parts[k].bytes += b.length; parts[k].us += (d.user + d.system) / 3; parts[k].n += v.size ?? v.length;
  }
}
console.log('files', files.length, 'bytes', total, 'deserialize all ms', (tall / 1000).toFixed(1));
for (const [k, v] of Object.entries(parts)) console.log(k.padEnd(15), String(v.bytes).padStart(10), (v.us / 1000).toFixed(1).padStart(7), 'ms', v.n);
