/**
 * Issue 16: a credential planted in every note and index line of a vault for every kind of item
 * never reaches what people and logs read: the proposal (YAML, JSON), review's screens and its
 * model, report --html, apply's dry run. Applying still writes the file's real bytes.
 */
import { appendFileSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { parseProposal } from '../src/proposal/yaml.js';
import { judgeItem, show } from '../src/review/session.js';
import { loadVault } from '../src/vault/load.js';
import { editProposal } from './helpers/proposal.js';
import { runMain, tempDir } from './helpers/run.js';

const TOKEN = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS = 'AKIAIOSFODNN7QWERTYU';
/** Any 12 characters of either key, in any case (a slug or a lower-cased title leaks them too). */
const FRAGMENTS = [TOKEN.slice(4, 16), TOKEN.slice(20, 32), AWS.slice(4, 16)].map((f) => f.toLowerCase());
const leaks = (text: string): string[] => FRAGMENTS.filter((f) => text.toLowerCase().includes(f));

const ROOT = join(process.cwd(), 'fixtures', 'consolidate');
const CASES = [
  'contradictions/polarity',
  'dangling-links/typo-and-gone',
  'dead-references/planted',
  'incidents/unlinked-incident',
  'index-overflow/rules-kept-references-moved',
  'near-duplicates/light-edits',
  'not-memory/dump-and-session-log',
  'orphans/unlinked',
  'store-overflow/dups-then-oldest',
];

/** The key appended to every regular file's lines (links are never followed: the demo has one out). */
function plant(dir: string, skip: readonly string[] = []): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) {
      plant(p, skip);
      continue;
    }
    if (skip.includes(name)) continue;
    if (!st.isFile() || !name.endsWith('.md')) continue;
    const text = readFileSync(p, 'utf8');
    if (name === 'MEMORY.md' || name === 'USER.md' || name === 'CATALOG.md') {
      // Every index line / store entry line carries the token.
      writeFileSync(
        p,
        text
          .split('\n')
          .map((l) => (l.trim() === '' || l === '§' || l.startsWith('#') ? l : `${l} ${TOKEN}`))
          .join('\n'),
      );
    } else {
      appendFileSync(p, `\nThe deploy key is ${TOKEN} and the backup key ${AWS}.\n`);
    }
  }
}

async function outputs(caseDir: string): Promise<{ kinds: string[]; texts: [string, string][] }> {
  const base = tempDir();
  cpSync(caseDir, base, { recursive: true, verbatimSymlinks: true });
  const vault = join(base, 'vault');
  // The orphans case's two notes are one line each: the same planted sentence in both would make the orphan
  // "say much the same" as the indexed note (info, superseded). Its orphan and index carry the credential.
  plant(vault, caseDir.endsWith(join('orphans', 'unlinked')) ? ['a.md'] : []);
  // Every kind proposed (some are info by default), so review screens and apply's dry run show each kind too.
  const kinds = [
    'contradiction',
    'dangling-link',
    'dead-reference',
    'incident',
    'index-overflow',
    'near-duplicate',
    'not-memory',
    'orphan',
    'store-overflow',
  ];
  writeFileSync(
    join(vault, 'memlint.config.json'),
    JSON.stringify({ consolidate: { propose: Object.fromEntries(kinds.map((k) => [k, true])) } }),
  );
  const options = existsSync(join(base, 'options.json'))
    ? JSON.parse(readFileSync(join(base, 'options.json'), 'utf8'))
    : {};
  const root = options.root ? ['--root', join(base, options.root)] : [];
  const env = options.path
    ? { PATH: `${options.path.map((p: string) => join(base, p)).join(':')}:${process.env.PATH}` }
    : {};
  const texts: [string, string][] = [];
  const proposal = join(base, 'p.yaml');
  const c = await runMain(['consolidate', vault, ...root, '--out', proposal], { env });
  expect(c.code, c.stderr).toBe(0);
  texts.push(['consolidate stdout/stderr', c.stdout + c.stderr], ['proposal YAML', readFileSync(proposal, 'utf8')]);
  const j = await runMain(['consolidate', vault, ...root, '--out', '-', '--format', 'json'], { env });
  texts.push(['proposal JSON', j.stdout + j.stderr]);
  const html = join(base, 'r.html');
  const r = await runMain(['report', vault, '--html', html]);
  expect(r.code, r.stderr).toBe(0);
  texts.push(['report --html', readFileSync(html, 'utf8')]);
  const parsed = parseProposal(readFileSync(proposal, 'utf8'), proposal);
  const loaded = loadVault(vault, { config: DEFAULT_CONFIG });
  for (const item of parsed.items) {
    texts.push([`review screen ${item.id}`, show(loaded, item, '[1/1]', true)]);
    texts.push([`review's model input ${item.id}`, JSON.stringify(judgeItem(loaded, item))]);
  }
  editProposal(proposal, (items) =>
    items.forEach((i) => {
      i.decision = 'approve';
    }),
  );
  const a = await runMain(['apply', proposal]);
  texts.push(['apply dry run', a.stdout + a.stderr]);
  // An index-overflow item whose moved lines carry a credential is withheld by the post-state gate (the
  // credential would land in a new note): its reason, in the outputs above, is checked like the rest.
  return {
    kinds: [
      ...new Set([
        ...parsed.items.map((i) => i.kind),
        ...((parsed.summary as { withheld?: { kind: string }[] } | undefined)?.withheld ?? []).map((w) => w.kind),
      ]),
    ],
    texts,
  };
}

describe('a planted credential reaches no output, for every kind of item', () => {
  const seen = new Set<string>();
  for (const name of CASES) {
    it(
      name,
      async () => {
        const { kinds, texts } = await outputs(join(ROOT, name));
        for (const k of kinds) seen.add(k);
        for (const [where, text] of texts) expect(leaks(text), `${name}: ${where}`).toEqual([]);
      },
      300_000,
    );
  }
  it('the cases covered every kind of item', () => {
    expect([...seen].sort(), [...seen].sort().join()).toEqual([
      'contradiction',
      'dangling-link',
      'dead-reference',
      'incident',
      'index-overflow',
      'near-duplicate',
      'not-memory',
      'orphan',
      'store-overflow',
    ]);
  });
});
