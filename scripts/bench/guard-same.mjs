#!/usr/bin/env node
// Proves that a change to guard's speed left its answers alone: guard's JSON result for a fixed set of
// drafts, on every corpus vault and on bench vaults, saved from one build and compared with another.
//
//   node scripts/bench/guard-same.mjs save <file> [--lib DIR] [--bench]     run, write the results to <file>
//   node scripts/bench/guard-same.mjs compare <file> [--lib DIR] [--bench]  run, compare with <file>; exit 1 on a difference
//
// --lib: the library build to run (default dist/lib of this checkout; for a baseline, a copy of an older
// build's dist/ kept inside this checkout, e.g. bench-out/base-dist/lib, so that it finds node_modules).
// --bench: also the generated vaults in bench-out/ (vault-1000, vault-hard-1000; made by scripts/bench/guard.mjs);
// --bench-10k with it: vault-10000 and vault-hard-10000 too (minutes more).
//
// Each vault is copied (timestamps kept) into a temporary folder first: guard writes its caches into the
// vault. Per vault, in this order, with a fixed `now` and the cache on (read-write) unless said:
//   - for three notes (spread over the sorted list): an exact copy (new path), a light edit (a word
//     changed, a sentence added; new path), the same edit written in place (its own path), a new
//     note made of the first sentences of two other notes, the note with every number changed, and
//     with its first use/run/set negated (drafts the conflict engine answers);
//   - the first draft again with the cache warm, and once with the cache off;
//   - index writes: MEMORY.md unchanged, minus one linked line, plus a line linking a note that does not exist;
//   - then one note is edited on disk (a line appended) and one removed, and the first draft and the
//     index write run again (the caches must notice);
//   - Hermes stores: an entry copied, edited, and a new one.
// The JSON compared is the library's GuardResult without `cache` (the counts of cached/computed notes
// are how it got there, not what it says).
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { lib: { type: 'string' }, bench: { type: 'boolean' }, 'bench-10k': { type: 'boolean' } },
});
const [mode, file] = positionals;
if (!['save', 'compare'].includes(mode) || !file) {
  console.error('usage: guard-same.mjs save|compare FILE [--lib DIR] [--bench]');
  process.exit(2);
}
const lib = resolve(values.lib ?? join(repo, 'dist', 'lib'));
// guard/run.js was renamed guard/guard.js; either, so that older builds still run.
const { guardDraft } = await import(
  pathToFileURL(join(lib, 'guard', existsSync(join(lib, 'guard', 'guard.js')) ? 'guard.js' : 'run.js')).href
);
const { loadConfig } = await import(pathToFileURL(join(lib, 'config', 'load.js')).href);
const now = new Date('2026-12-01T00:00:00Z');

const corpus = resolve(repo, '..', 'shared', 'corpus');
const vaults = [];
for (const kind of ['claude', 'hermes'])
  for (const id of readdirSync(join(corpus, kind)).sort())
    vaults.push({ id: `${kind}/${id}`, dir: join(corpus, kind, id), kind });
vaults.push({ id: 'demo-vault', dir: join(repo, 'fixtures', 'demo-vault'), kind: 'claude' });
if (values.bench)
  for (const v of [
    'vault-1000',
    'vault-hard-1000',
    ...(values['bench-10k'] ? ['vault-10000', 'vault-hard-10000'] : []),
  ])
    if (existsSync(join(repo, 'bench-out', v)))
      vaults.push({ id: `bench/${v}`, dir: join(repo, 'bench-out', v), kind: 'claude' });

/** Markdown notes of a vault copy, sorted (not MEMORY.md, not under dot folders). */
function notesOf(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md') && p !== 'MEMORY.md') out.push(p);
    }
  };
  walk('');
  return out.sort();
}

const firstSentences = (text, n) =>
  text
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .split(/(?<=[.!?])\s+/)
    .slice(0, n)
    .join(' ');
/** A light edit: the first word of 5+ letters in the body changed, a sentence added. */
const lightEdit = (text) => text.replace(/(\n[^\n-][^\n]*?)\b([A-Za-z]{5,})\b/, '$1$2s') + '\nAlso noted later.\n';

/** Every number in the body one more (a value conflict with the note, where it states one). */
const numbersChanged = (text) =>
  text.replace(
    /^(---\n[\s\S]*?\n---\n)?([\s\S]*)$/,
    (_, fm = '', body) => fm + body.replace(/\d+/g, (d) => String(Number(d) + 1)),
  );
/** "never" before the first use/run/always in the body, "always" dropped (a polarity conflict). */
const negated = (text) =>
  text.replace(
    /^(---\n[\s\S]*?\n---\n)?([\s\S]*)$/,
    (_, fm = '', body) => fm + body.replace(/\b(?:[Aa]lways )?([Uu]se|[Rr]un|[Ss]et)\b/, 'never $1'),
  );

const results = {};
const scratch = mkdtempSync(join(tmpdir(), 'guard-same-'));
for (const v of vaults) {
  const dir = join(scratch, v.id.replace(/\//g, '__'));
  cpSync(v.dir, dir, { recursive: true, preserveTimestamps: true });
  rmSync(join(dir, '.memlint'), { recursive: true, force: true });
  const { config } = await loadConfig(dir);
  const out = [];
  const run = (label, draft, options = {}) => {
    let r;
    try {
      const { cache: _counts, ...rest } = guardDraft(dir, config, draft, { now, ...options });
      r = rest;
    } catch (e) {
      r = { error: String(e?.message ?? e).split('\n')[0] };
    }
    out.push({ label, result: r });
  };
  if (v.kind === 'claude') {
    const notes = notesOf(dir);
    const picks = [...new Set([0, Math.floor(notes.length / 2), notes.length - 1])].filter(
      (i) => i >= 0 && i < notes.length,
    );
    let first = null;
    for (const i of picks) {
      const p = notes[i];
      const text = readFileSync(join(dir, p), 'utf8');
      const other = notes[(i + 1) % notes.length],
        third = notes[(i + 2) % notes.length];
      const mix = `---\nname: mixed-${i}\ndescription: sentences of two notes\ntype: project\n---\n\n${firstSentences(readFileSync(join(dir, other), 'utf8'), 3)}\n\n${firstSentences(readFileSync(join(dir, third), 'utf8'), 3)}\n`;
      first ??= text;
      run(`copy of ${p}`, text, { targetPath: 'new-copy.md' });
      run(`light edit of ${p}`, lightEdit(text), { targetPath: 'new-edit.md' });
      run(`light edit of ${p} in place`, lightEdit(text), { targetPath: p });
      run(`mix of ${other} and ${third}`, mix, { targetPath: `new-mix-${i}.md` });
      // Drafts the conflict engine has something to say about: every number changed, a rule negated.
      run(`numbers of ${p} changed`, numbersChanged(text), { targetPath: 'new-numbers.md' });
      run(`rule of ${p} negated`, negated(text), { targetPath: 'new-negated.md' });
    }
    if (first !== null) {
      run('first copy, no path, warm cache', first);
      run('first copy, cache off', first, { targetPath: 'new-copy.md', cache: 'off' });
    }
    const indexPath = join(dir, 'MEMORY.md');
    const index = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
    const indexWrites = () => {
      if (index === null) return;
      const lines = index.split('\n');
      const drop = lines.findIndex((l, i) => i > 2 && /\]\(|\[\[/.test(l));
      run('index unchanged', index, { targetPath: 'MEMORY.md' });
      if (drop >= 0)
        run(`index minus line ${drop + 1}`, lines.filter((_, i) => i !== drop).join('\n'), { targetPath: 'MEMORY.md' });
      run(
        'index plus a link to nothing',
        `${index.replace(/\s+$/, '')}\n- [Nothing](nothing-here.md) — a note that does not exist\n`,
        { targetPath: 'MEMORY.md' },
      );
    };
    indexWrites();
    // The vault changes under the caches: one note edited, one removed.
    if (notes.length >= 2) {
      appendFileSync(join(dir, notes[0]), '\nAn edit made after the cache was written, with the word zyxwvut.\n');
      // A fixed mtime: the edited note's `modified` is part of the answer, and must not depend on when the script ran.
      utimesSync(join(dir, notes[0]), new Date('2026-11-30T12:00:00Z'), new Date('2026-11-30T12:00:00Z'));
      rmSync(join(dir, notes[notes.length - 1]));
      if (first !== null) run('first copy after an edit and a removal', first, { targetPath: 'new-copy.md' });
      indexWrites();
    }
  } else {
    for (const store of ['MEMORY.md', 'USER.md']) {
      const p = join(dir, store);
      if (!existsSync(p)) continue;
      const entries = readFileSync(p, 'utf8')
        .split(/\n§\n/)
        .map((e) => e.trim())
        .filter(Boolean);
      const e = entries[Math.floor(entries.length / 2)] ?? 'a new entry';
      run(`${store}: an entry copied`, e, { targetPath: store });
      run(`${store}: an entry edited`, lightEdit(`\n${e}`).trim(), { targetPath: store });
      run(
        `${store}: a new entry`,
        'The staging deploy now runs from tools/deploy.sh on port 8080, never from a laptop.',
        { targetPath: store },
      );
    }
  }
  results[v.id] = out;
  process.stderr.write(`${v.id}: ${out.length} drafts\n`);
  rmSync(dir, { recursive: true, force: true });
}
rmSync(scratch, { recursive: true, force: true });

// What the set exercises: verdicts, and matches that carry a conflict (the conflict engine's answers).
const all = Object.values(results)
  .flat()
  .map((o) => o.result);
const tally = {};
for (const r of all) tally[r.verdict ?? 'error'] = (tally[r.verdict ?? 'error'] ?? 0) + 1;
const matches = all.flatMap((r) => r.matches ?? []);
console.log(
  `verdicts ${JSON.stringify(tally)}; ${matches.length} matches, ${matches.filter((m) => m.conflict).length} with a conflict (${matches.filter((m) => m.kind === 'contradiction').length} contradictions)`,
);
if (mode === 'save') {
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(
    `saved ${Object.values(results).reduce((n, o) => n + o.length, 0)} results of ${vaults.length} vaults to ${file}`,
  );
} else {
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  let same = 0,
    different = 0;
  for (const [id, out] of Object.entries(results)) {
    const before = saved[id] ?? [];
    if (before.length !== out.length) {
      console.log(`${id}: ${before.length} drafts saved, ${out.length} now`);
      different++;
      continue;
    }
    out.forEach((o, i) => {
      const a = JSON.stringify(before[i]),
        b = JSON.stringify(o);
      if (a === b) same++;
      else {
        different++;
        console.log(`DIFFERENT ${id}: ${o.label}\n  saved: ${a.slice(0, 600)}\n  now:   ${b.slice(0, 600)}`);
      }
    });
  }
  console.log(`${same} identical, ${different} different`);
  process.exit(different ? 1 : 0);
}
