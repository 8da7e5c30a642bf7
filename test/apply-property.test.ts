/**
 * Property-based (fast-check): for random vaults and random approved proposals, the dry run lists
 * exactly what --execute does, apply then undo is the identity, and nothing outside the vault
 * changes. Runs: 1,000 in CI, 100 locally, MEMLINT_PROPERTY_RUNS to change (test/helpers/ci.ts).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { executeChanges, undoRun } from '../src/apply/execute.js';
import { planApply } from '../src/apply/plan.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { fileSha, manifestOf } from '../src/proposal/refs.js';
import type { Proposal, ProposalItem } from '../src/proposal/schema.js';
import { sha256Hex } from '../src/util/digest.js';
import { loadVault } from '../src/vault/load.js';
import { tempDir } from './helpers/run.js';
import { propertyRuns } from './helpers/ci.js';
import { expectSameTree, snapshotTree } from './helpers/snapshot.js';

const RUNS = propertyRuns(1000);
const WORDS = ['deploy', 'tests', 'pnpm', 'cache', 'port', 'index', 'review', 'release', 'token', 'schema'];

interface NoteSpec {
  name: string;
  type: string;
  nested: boolean;
  words: number[];
  links: number[];
  wiki: boolean;
  crlf: boolean;
  bom: boolean;
  mode: number;
}
interface VaultSpec {
  notes: NoteSpec[];
  indexed: boolean[];
  plainLines: number;
  catalog: boolean;
}

const noteSpec = (i: number): fc.Arbitrary<NoteSpec> =>
  fc.record({
    name: fc.constant(`n${i}`),
    type: fc.constantFrom('user', 'feedback', 'project', 'reference'),
    nested: fc.boolean(),
    words: fc.array(fc.nat({ max: WORDS.length - 1 }), { minLength: 3, maxLength: 12 }),
    links: fc.array(fc.nat({ max: 6 }), { maxLength: 3 }),
    wiki: fc.boolean(),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    mode: fc.constantFrom(0o644, 0o600, 0o664),
  });

const vaultSpec: fc.Arbitrary<VaultSpec> = fc.integer({ min: 2, max: 7 }).chain((n) =>
  fc.record({
    notes: fc.tuple(...Array.from({ length: n }, (_, i) => noteSpec(i))),
    indexed: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    plainLines: fc.nat({ max: 3 }),
    catalog: fc.boolean(),
  }),
);

function writeVault(dir: string, spec: VaultSpec): void {
  mkdirSync(dir, { recursive: true });
  const n = spec.notes.length;
  for (const s of spec.notes) {
    const eol = s.crlf ? '\r\n' : '\n';
    const fm = s.nested
      ? [
          '---',
          `name: ${s.name}`,
          `description: about ${s.name}`,
          'metadata:',
          `  type: ${s.type}`,
          '  originSessionId: abc',
          '---',
        ]
      : ['---', `name: ${s.name}`, `description: about ${s.name}`, `type: ${s.type}`, 'version: 1.10', '---'];
    const links = s.links.filter((l) => l < n).map((l) => (s.wiki ? `[[n${l}]]` : `[n${l}](n${l}.md)`));
    const body = [s.words.map((w) => WORDS[w]).join(' ') + '.', links.length ? `See ${links.join(' and ')}.` : ''];
    const file = join(dir, `${s.name}.md`);
    writeFileSync(file, (s.bom ? '\uFEFF' : '') + [...fm, '', ...body, ''].join(eol));
    chmodSync(file, s.mode);
  }
  const index = ['# Memory', ''];
  spec.notes.forEach((s, i) => {
    if (spec.indexed[i]) index.push(`- [${s.name}](${s.name}.md) — about ${s.name}`);
  });
  for (let k = 0; k < spec.plainLines; k++) index.push(`- a plain line ${k}`);
  if (spec.catalog) index.push('- [Catalog](CATALOG.md)');
  writeFileSync(join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  if (spec.catalog) writeFileSync(join(dir, 'CATALOG.md'), '# Memory catalog\n\nstale\n');
}

/** A random proposal against the vault as it is: correct hashes, random actions and decisions. */
function proposalFor(dir: string, choices: number[]): Proposal {
  const vault = loadVault(dir, { config: DEFAULT_CONFIG });
  const notes = vault.notes.map((f) => f.path).sort();
  let c = 0;
  const pick = (m: number): number => choices[c++ % choices.length]! % Math.max(1, m);
  const ref = (p: string): ProposalItem['notes'][number] => ({ path: p, sha256: fileSha(vault.byPath.get(p)) });
  const items: ProposalItem[] = [];
  const count = 1 + pick(4);
  for (let k = 0; k < count; k++) {
    const id = `item-${String(k + 1).padStart(4, '0')}`;
    const decision = pick(4) === 0 ? 'pending' : 'approve';
    const kind = pick(5);
    if (kind === 0 && notes.length >= 2) {
      const into = notes[pick(notes.length)]!;
      const others = notes.filter((p) => p !== into);
      const retire = others.filter(() => pick(2) === 0);
      if (retire.length === 0) retire.push(others[0]!);
      items.push({
        id,
        kind: 'near-duplicate',
        notes: [into, ...retire].map(ref),
        evidence: {},
        suggestion: 'merge',
        action: { type: 'merge', into, retire, ...(pick(2) ? { body: `merged ${k}\n` } : {}) },
        decision,
      });
    } else if (kind === 1) {
      const p = notes[pick(notes.length)]!;
      items.push({
        id,
        kind: 'incident',
        notes: [ref(p)],
        evidence: {},
        suggestion: 'retire',
        action: { type: 'retire', retire: [p] },
        decision,
      });
    } else if (kind === 2 && vault.index) {
      const lines = vault.index.text.split('\n').slice(0, -1);
      const remove = lines
        .map((text, i) => ({ line: i + 1, text }))
        .filter((l) => l.text.startsWith('- ') && pick(3) === 0);
      items.push({
        id,
        kind: 'index-overflow',
        notes: [ref('MEMORY.md')],
        evidence: {},
        suggestion: 'fix-index',
        action: { type: 'fix-index', file: 'MEMORY.md', remove, add: pick(2) ? [`- added ${k}`] : [] },
        manifest: manifestOf(vault),
        decision,
      });
    } else if (kind === 3 && vault.index && vault.index.links.length) {
      const l = vault.index.links[pick(vault.index.links.length)]!;
      const to = notes[pick(notes.length)]!;
      items.push({
        id,
        kind: 'dangling-link',
        notes: [ref('MEMORY.md'), ref(to)],
        evidence: {},
        suggestion: 'relink',
        action: { type: 'relink', file: 'MEMORY.md', from: l.target, to },
        decision,
      });
    } else {
      items.push({
        id,
        kind: 'contradiction',
        notes: [ref(notes[0]!)],
        evidence: {},
        suggestion: 'review',
        action: { type: 'keep' },
        decision,
      });
    }
  }
  return { version: 1, vault: vault.root, createdAt: '2026-11-30T00:00:00Z', manifest: manifestOf(vault), items };
}

const strip = (m: Map<string, string>): Map<string, string> =>
  new Map([...m].filter(([k]) => !k.startsWith('.memlint')));

describe('apply: properties', () => {
  it(`dry run == execute, apply then undo is the identity, nothing outside changes (${RUNS} runs)`, () => {
    const base = tempDir();
    let run = 0;
    let executed = 0;
    fc.assert(
      fc.property(vaultSpec, fc.array(fc.nat({ max: 1000 }), { minLength: 8, maxLength: 40 }), (spec, choices) => {
        const parent = join(base, `r${run++}`);
        const dir = join(parent, 'vault');
        writeVault(dir, spec);
        writeFileSync(join(parent, 'outside.md'), 'not part of the vault\n');
        const outsideBefore = readFileSync(join(parent, 'outside.md'));
        const before = snapshotTree(dir, { mtime: 'ms' });
        const proposal = proposalFor(dir, choices);
        const runId = `20261130-000000-000${String(run).padStart(4, '0')}`;
        const dry = planApply(proposal, loadVault(dir, { config: DEFAULT_CONFIG }), runId);
        const plan = planApply(proposal, loadVault(dir, { config: DEFAULT_CONFIG }), runId);
        expect(plan).toEqual(dry);
        if (plan.changes.length === 0) {
          rmSync(parent, { recursive: true, force: true });
          return;
        }
        executed++;
        executeChanges(dir, runId, plan.changes, { kind: 'apply', items: plan.items });
        // Exactly the planned files changed, to exactly the planned bytes.
        const after = snapshotTree(dir, { mtime: 'ms' });
        const changed = new Set(plan.changes.map((ch) => ch.path));
        for (const ch of plan.changes) {
          const file = join(dir, ...ch.path.split('/'));
          if (ch.after) expect(sha256Hex(readFileSync(file))).toBe(sha256Hex(ch.after.bytes));
          else expect(existsSync(file)).toBe(false);
        }
        for (const [k, v] of strip(before)) if (!changed.has(k) && !k.endsWith('/')) expect(after.get(k)).toBe(v);
        undoRun(dir, runId);
        expectSameTree(strip(snapshotTree(dir, { mtime: 'ms' })), strip(before));
        expect(readFileSync(join(parent, 'outside.md'))).toEqual(outsideBefore);
        rmSync(parent, { recursive: true, force: true });
      }),
      { numRuns: RUNS, seed: Number(process.env.MEMLINT_PROPERTY_SEED ?? 20261130) },
    );
    console.log(`apply property: ${executed} of ${run} runs changed files`);
    // Not vacuous: most runs must actually change something.
    expect(executed).toBeGreaterThan(run * 0.5);
  }, 900_000);
});
