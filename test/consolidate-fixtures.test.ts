/**
 * One harness for every consolidate stage: fixtures/consolidate/<stage>/<case>/ holds vault/,
 * optionally project/ (the root) and bin/ (the PATH), options.json, and expected.json: the items of
 * that stage's kinds. MEMLINT_UPDATE_FIXTURES=1 rewrites expected.json (review the diff).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { consolidateVault } from '../src/consolidate/consolidate.js';
import { STAGES } from '../src/consolidate/stages/index.js';
import { proposalSchema, type ItemKind } from '../src/proposal/schema.js';
import { loadVault } from '../src/vault/load.js';

const ROOT = join(process.cwd(), 'fixtures', 'consolidate');
const KINDS: Record<string, ItemKind[]> = {
  'near-duplicates': ['near-duplicate'],
  contradictions: ['contradiction'],
  'dead-references': ['dead-reference'],
  incidents: ['incident'],
  'index-overflow': ['index-overflow'],
  'store-overflow': ['store-overflow'],
  orphans: ['orphan'],
  'dangling-links': ['dangling-link'],
  'not-memory': ['not-memory'],
};
const update = process.env.MEMLINT_UPDATE_FIXTURES === '1';

const cases = readdirSync(ROOT)
  .sort()
  .flatMap((stage) =>
    readdirSync(join(ROOT, stage))
      .sort()
      .map((name) => ({ stage, name, dir: join(ROOT, stage, name) })),
  );

describe('consolidate stage fixtures', () => {
  it('every stage has fixtures', () => {
    for (const s of STAGES) expect(existsSync(join(ROOT, s.id)), s.id).toBe(true);
  });

  it.each(cases.map((c) => [`${c.stage} › ${c.name}`, c] as const))('%s', (_l, c) => {
    const options = existsSync(join(c.dir, 'options.json'))
      ? JSON.parse(readFileSync(join(c.dir, 'options.json'), 'utf8'))
      : {};
    const vault = loadVault(join(c.dir, 'vault'), { config: DEFAULT_CONFIG });
    const proposal = consolidateVault(vault, {
      now: new Date('2026-11-30T12:00:00Z'),
      ...(options.root ? { root: join(c.dir, options.root) } : {}),
      path: (options.path ?? []).map((p: string) => join(c.dir, p)).join(':'),
    });
    expect(() => proposalSchema.parse(proposal)).not.toThrow();
    // Items and info items (shown, not proposed) alike: `info: true` marks the second.
    const actual = [...proposal.items, ...(proposal.info ?? [])]
      .filter((i) => KINDS[c.stage]!.includes(i.kind))
      .map((i) => ({
        id: i.id,
        paths: i.notes.map((n) => n.path),
        suggestion: i.suggestion,
        action: i.action,
        evidence: i.evidence,
        ...('why' in i ? { info: true } : {}),
      }));
    const withSummary =
      c.stage === 'dead-references'
        ? { items: actual, summary: proposal.summary?.deadReferences }
        : c.stage === 'not-memory'
          ? { items: actual, summary: proposal.summary?.notMemory }
          : actual;
    const normalized = JSON.parse(JSON.stringify(withSummary).split(c.dir).join('<case>'));
    const file = join(c.dir, 'expected.json');
    if (update) writeFileSync(file, `${JSON.stringify(normalized, null, 2)}\n`);
    expect(normalized).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });
});
