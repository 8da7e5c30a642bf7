// Seeded synthetic vaults that look like real ones: three front-matter shapes, Why/How sections,
// wikilinks, code fences, CJK notes, an index near its budget and a catalog.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const WORDS =
  'always use pnpm run tests before commit never push to main branch the deploy script lives in tools database migration check port config cache build release review lint format docs api token auth retry timeout queue worker python node vitest jest docker compose staging production user prefers short answers explain tradeoffs plainly'.split(
    ' ',
  );
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
  const desc = cjk
    ? Array.from({ length: 12 }, () => CJK[Math.floor(r() * CJK.length)]).join('')
    : sentence(r, 6).slice(0, -1);
  const shape = i % 3;
  const fm =
    shape === 0
      ? `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n`
      : shape === 1
        ? `---\nname: ${name}\ndescription: ${desc}\nmetadata:\n  node_type: memory\n  type: ${type}\n  originSessionId: ${Math.floor(r() * 1e9).toString(16)}-session\n  modified: 2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z\n---\n`
        : `---\ntype: ${type}\nname: ${name}\ndescription: ${desc}\noriginSessionId: ${i}\n---\n`;
  const link = `[[note-${Math.floor(r() * total)}]]`;
  const body = [
    sentence(r),
    sentence(r),
    `See ${link} for the related rule.`,
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

// ---------------------------------------------------------------------------------------------
// The "hard" shape (issue 14): what real vaults have and the shape above does not. Topical Zipf
// vocabulary with many notes per topic; long notes (p90 ~8 KB, 1 in 100 over 100 KB); an index of
// 9,000 lines; ~15% of wikilinks broken (half near-misses of a real stem, half names never written);
// many backticked file mentions (existing notes, missing notes, source files); 1 note in 12 in CJK;
// folders up to five deep. Deterministic: the same (count, seed) gives the same bytes.
// ---------------------------------------------------------------------------------------------

const SYL = [
  'ka',
  'ro',
  'mi',
  'tes',
  'dex',
  'lo',
  'pra',
  'vin',
  'su',
  'gel',
  'tor',
  'an',
  'bri',
  'cus',
  'fe',
  'nol',
  'qua',
  'zen',
  'ob',
  'ir',
  'mak',
  'tul',
  'sen',
  'ver',
];
const CJK_WIDE =
  '使用测试部署数据库配置用户偏好简短回答解释权衡发布审查缓存构建服务器日志监控索引查询迁移备份恢复权限令牌会话超时重试队列工作流程规则记忆'.split(
    '',
  );

/** A global vocabulary of pseudo-words; word k is drawn with probability ∝ 1/(k+1) (Zipf). */
function vocabulary(r, size) {
  const seen = new Set(WORDS);
  const out = [...WORDS];
  while (out.length < size) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYL[Math.floor(r() * SYL.length)];
    if (!seen.has(w)) {
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}
function zipfSampler(r, n, s = 1.05) {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let k = 0; k < n; k++) {
    acc += 1 / Math.pow(k + 1, s);
    cdf[k] = acc;
  }
  return () => {
    const x = r() * acc;
    let lo = 0,
      hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A near-miss of a stem: one or two edits (swap, drop, double, replace), as a person mistypes. */
function typo(r, s) {
  const edits = 1 + Math.floor(r() * 2);
  let t = s;
  for (let e = 0; e < edits && t.length > 3; e++) {
    const i = 1 + Math.floor(r() * (t.length - 2));
    const op = Math.floor(r() * 4);
    if (op === 0) t = t.slice(0, i) + t[i + 1] + t[i] + t.slice(i + 2);
    else if (op === 1) t = t.slice(0, i) + t.slice(i + 1);
    else if (op === 2) t = t.slice(0, i) + t[i] + t.slice(i);
    else t = t.slice(0, i) + 'aeiou'[Math.floor(r() * 5)] + t.slice(i + 1);
  }
  return t;
}

/** Target length in bytes: 70% 0.5–3 KB, 20% 3–8 KB, 9% 8–30 KB, 1% 100–160 KB (p90 ≈ 8 KB). */
function targetLength(r) {
  const x = r();
  if (x < 0.7) return 500 + Math.floor(r() * 2500);
  if (x < 0.9) return 3000 + Math.floor(r() * 3500);
  if (x < 0.99) return 8000 + Math.floor(r() * 22000);
  return 100000 + Math.floor(r() * 60000);
}

/**
 * Plan a hard vault without writing it: `{ files: [{ rel, text }], index }`. Exposed so tests can
 * build one in memory-sized pieces; `generateHardVault` writes it.
 */
export function planHardVault(count, seed = 7) {
  const r = rng(seed);
  const vocab = vocabulary(r, 6000);
  const globalWord = zipfSampler(r, vocab.length);
  const topicCount = Math.max(8, Math.round(count / 60)); // ~60 notes per topic
  const topicPick = zipfSampler(r, topicCount, 0.8);
  const topics = [];
  for (let t = 0; t < topicCount; t++) {
    // Each topic: 40 words of its own, drawn from the global Zipf (so common words are shared).
    const words = [];
    for (let i = 0; i < 40; i++) words.push(vocab[globalWord()]);
    const depth = 1 + (t % 5);
    const parts = [];
    for (let d = 0; d < depth; d++) parts.push(d === 0 ? `area-${t % 12}` : `${words[d]}-${d}`);
    topics.push({ words, dir: parts.join('/'), local: zipfSampler(r, 40, 1.1) });
  }
  const notes = [];
  const stems = new Set();
  for (let i = 0; i < count; i++) {
    const t = topicPick();
    const topic = topics[t];
    const type = TYPES[i % 4];
    const cjk = i % 12 === 5;
    let stem;
    do {
      stem = cjk
        ? `${type}_${Array.from({ length: 3 + Math.floor(r() * 4) }, () => CJK_WIDE[Math.floor(r() * CJK_WIDE.length)]).join('')}`
        : `${type}_${topic.words[topic.local()]}-${topic.words[topic.local()]}-${vocab[globalWord()]}`;
      if (stems.has(stem)) stem += `-${i}`;
    } while (stems.has(stem));
    stems.add(stem);
    const dir = i % 7 === 0 ? '' : topic.dir; // some notes at the root
    notes.push({ i, t, stem, type, cjk, rel: dir ? `${dir}/${stem}.md` : `${stem}.md` });
  }
  const byTopic = Array.from({ length: topicCount }, () => []);
  for (const n of notes) byTopic[n.t].push(n);
  const pickLinkTarget = (n) => {
    const same = byTopic[n.t];
    const other =
      r() < 0.7 && same.length > 1 ? same[Math.floor(r() * same.length)] : notes[Math.floor(r() * notes.length)];
    const x = r();
    if (x < 0.075) return typo(r, other.stem); // a near-miss: did-you-mean has an answer
    if (x < 0.15) return `${other.type}_${topics[n.t].words[topics[n.t].local()]}-${vocab[globalWord()]}`; // never written
    return other.stem;
  };
  const topicSentence = (n, len) => {
    const topic = topics[n.t];
    const w = [];
    for (let k = 0; k < len; k++) w.push(r() < 0.6 ? topic.words[topic.local()] : vocab[globalWord()]);
    const s = w.join(' ');
    return s[0].toUpperCase() + s.slice(1) + '.';
  };
  const cjkSentence = () =>
    Array.from({ length: 12 + Math.floor(r() * 20) }, () => CJK_WIDE[Math.floor(r() * CJK_WIDE.length)]).join('') +
    '。';
  const files = [];
  for (const n of notes) {
    const target = targetLength(r);
    const desc = n.cjk ? cjkSentence().slice(0, -1) : topicSentence(n, 7).slice(0, -1);
    const fm =
      n.i % 3 === 0
        ? `---\nname: ${n.stem}\ndescription: ${desc}\ntype: ${n.type}\n---\n`
        : n.i % 3 === 1
          ? `---\nname: ${n.stem}\ndescription: ${desc}\nmetadata:\n  node_type: memory\n  type: ${n.type}\n  originSessionId: ${Math.floor(r() * 1e9).toString(16)}-session\n---\n`
          : `---\ntype: ${n.type}\nname: ${n.stem}\ndescription: ${desc}\n---\n`;
    const parts = [fm, ''];
    let size = fm.length;
    let para = 0;
    while (size < target) {
      const prose = [];
      const sentences = 2 + Math.floor(r() * 4);
      for (let s = 0; s < sentences; s++)
        prose.push(n.cjk && r() < 0.8 ? cjkSentence() : topicSentence(n, 8 + Math.floor(r() * 12)));
      if (r() < 0.5) prose.push(`See [[${pickLinkTarget(n)}]] and [[${pickLinkTarget(n)}]].`);
      if (r() < 0.4) {
        const m = r();
        const mention =
          m < 0.4
            ? notes[Math.floor(r() * notes.length)].rel
            : m < 0.55
              ? `${n.type}_${vocab[globalWord()]}-${vocab[globalWord()]}.md`
              : `src/${topics[n.t].words[0]}/${vocab[globalWord()]}.ts`;
        prose.push(
          `The file \`${mention}\` holds the details; also \`${notes[Math.floor(r() * notes.length)].stem}.md\`.`,
        );
      }
      const blocks = [prose.join(' ')];
      if (para % 4 === 1) blocks.push('**Why:** ' + topicSentence(n, 10), '**How to apply:** ' + topicSentence(n, 10));
      if (para % 6 === 3) blocks.push(['```bash', `pnpm run ${topics[n.t].words[1]} -- [[ -f x ]]`, '```'].join('\n'));
      const text = blocks.join('\n\n');
      parts.push(text, '');
      size += text.length + 1;
      para++;
    }
    files.push({ rel: n.rel, text: parts.join('\n') });
  }
  // The index: 9,000 lines (topic headings, one line per note, see-also lines with broken links).
  const lines = ['# Memory', ''];
  const want = 9000;
  let k = 0;
  for (let t = 0; t < topicCount && lines.length < want; t++) {
    lines.push(`## ${topics[t].words[0]} ${topics[t].words[1]}`);
    for (const n of byTopic[t]) {
      if (lines.length >= want) break;
      lines.push(`- [${n.stem}](${n.rel}) — ${topicSentence(n, 6).slice(0, -1)}`);
    }
  }
  while (lines.length < want) {
    const n = notes[k++ % notes.length];
    lines.push(`- see also [[${pickLinkTarget(n)}]] — ${topicSentence(n, 5).slice(0, -1)}`);
  }
  lines.push('- [Catalog](CATALOG.md) — every note');
  return { files, index: lines.join('\n') + '\n' };
}

export function generateHardVault(dir, count, seed = 7) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { files, index } = planHardVault(count, seed);
  const made = new Set();
  for (const f of files) {
    const slash = f.rel.lastIndexOf('/');
    if (slash > 0) {
      const d = f.rel.slice(0, slash);
      if (!made.has(d)) {
        mkdirSync(join(dir, d), { recursive: true });
        made.add(d);
      }
    }
    writeFileSync(join(dir, f.rel), f.text);
  }
  writeFileSync(join(dir, 'MEMORY.md'), index);
}

/** Write a vault of the given shape ('old' or 'hard'). */
export function generate(shape, dir, count, seed) {
  return shape === 'hard' ? generateHardVault(dir, count, seed ?? 7) : generateVault(dir, count, seed ?? 42);
}

/** The k-th note a vault's index links to (a note that exists, for benches that edit or draft one). */
export function indexedNote(dir, k) {
  const links = [...readFileSync(join(dir, 'MEMORY.md'), 'utf8').matchAll(/^- \[[^\]]*\]\(([^)]+\.md)\)/gm)].map(
    (m) => m[1],
  );
  return join(dir, links[k % links.length]);
}
