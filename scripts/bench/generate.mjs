// Seeded synthetic vaults that look like real ones: three front-matter shapes, Why/How sections,
// wikilinks, code fences, CJK notes, an index near its budget and a catalog.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'always use pnpm run tests before commit never push to main branch the deploy script lives in tools database migration check port config cache build release review lint format docs api token auth retry timeout queue worker python node vitest jest docker compose staging production user prefers short answers explain tradeoffs plainly'.split(' ');
const CJK = '使用测试部署数据库配置用户偏好简短回答解释权衡发布审查缓存构建'.split('');
const TYPES = ['user', 'feedback', 'project', 'reference'];

export function sentence(r, n = 8 + Math.floor(r() * 10)) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
  const s = w.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

export function noteText(r, i, total) {
  const type = TYPES[i % 4];
  const name = `note-${i}`;
  const cjk = i % 17 === 0;
  const desc = cjk ? Array.from({ length: 12 }, () => CJK[Math.floor(r() * CJK.length)]).join('') : sentence(r, 6).slice(0, -1);
  const shape = i % 3;
  const fm = shape === 0
    ? `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n`
    : shape === 1
      ? `---\nname: ${name}\ndescription: ${desc}\nmetadata:\n  node_type: memory\n  type: ${type}\n  originSessionId: ${Math.floor(r() * 1e9).toString(16)}-session\n  modified: 2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z\n---\n`
      : `---\ntype: ${type}\nname: ${name}\ndescription: ${desc}\noriginSessionId: ${i}\n---\n`;
  const link = `[[note-${Math.floor(r() * total)}]]`;
  const body = [
    sentence(r), sentence(r), `See ${link} for the related rule.`,
    '',
    '**Why:** ' + sentence(r),
    '',
    '**How to apply:** ' + sentence(r),
    ...(i % 5 === 0 ? ['', '```bash', 'pnpm run test -- [[ -f x ]]', '```'] : []),
  ].join('\n');
  return `${fm}\n${body}\n`;
}

export function generateVault(dir, count, seed = 42) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = rng(seed);
  const lines = ['# Memory', ''];
  for (let i = 0; i < count; i++) {
    const sub = count > 2000 ? join(dir, `topic-${i % 50}`) : dir;
    if (count > 2000) mkdirSync(sub, { recursive: true });
    const rel = count > 2000 ? `topic-${i % 50}/note-${i}.md` : `note-${i}.md`;
    writeFileSync(join(dir, rel), noteText(r, i, count));
    if (i < 150) lines.push(`- [note-${i}](${rel}) — ${sentence(r, 6)}`);
  }
  lines.push('- [Catalog](CATALOG.md) — every note');
  writeFileSync(join(dir, 'MEMORY.md'), lines.join('\n') + '\n');
}
