import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../src/rules/index.js';

/** Rule ids CONTRACT.md requires. */
const CONTRACT_IDS = [
  'index/over-budget',
  'index/near-budget',
  'index/dangling-link',
  'note/orphan',
  'note/frontmatter-invalid',
  'note/frontmatter-schema',
  'note/duplicate-name',
  'note/broken-wikilink',
  'catalog/stale',
  'hermes/over-budget',
  'hermes/near-budget',
  'hermes/duplicate-entry',
  'security/invisible-unicode',
  'security/secret',
  'security/prompt-injection',
  'security/exfiltration',
  'security/persistence',
];

describe('rule registry', () => {
  it('ids are unique', () => expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length));

  it.each(RULES.map((r) => [r.id, r] as const))('%s matches its file, has docs, messages and fixtures', (id, rule) => {
    expect(id).toMatch(/^[a-z]+\/[a-z-]+$/);
    expect(existsSync(join('src', 'rules', `${id}.ts`))).toBe(true);
    expect(rule.meta.docs.why.length).toBeGreaterThan(20);
    expect(rule.meta.docs.fix.length).toBeGreaterThan(10);
    expect(Object.keys(rule.meta.messages).length).toBeGreaterThan(0);
    const dir = join('fixtures', id);
    expect(existsSync(dir), `fixtures/${id}/`).toBe(true);
    const cases = readdirSync(dir).filter(
      (c) => existsSync(join(dir, c, 'vault')) && existsSync(join(dir, c, 'expected.json')),
    );
    expect(cases.length).toBeGreaterThan(0);
  });

  // The engine uses `defaults` when a config sets no options, without building the schema (zod is slow to load).
  it.each(
    RULES.filter((r) => r.meta.options !== undefined || r.meta.defaults !== undefined).map((r) => [r.id, r] as const),
  )('%s: defaults are what its schema gives for {}', (_id, rule) => {
    expect(rule.meta.options).toBeDefined();
    expect(rule.meta.defaults).toEqual(rule.meta.options!.parse({}));
  });

  for (const id of CONTRACT_IDS)
    it(`contract rule ${id} is registered`, () => expect(RULES.map((r) => r.id)).toContain(id));
});

describe('draft rules', () => {
  it("are the registry's own modules: the security rules and the front-matter rules", async () => {
    const { DRAFT_RULES, SECURITY_RULES } = await import('../src/rules/draft.js');
    for (const r of DRAFT_RULES) expect(RULES).toContain(r);
    expect(SECURITY_RULES.map((r) => r.id).sort()).toEqual(
      RULES.filter((r) => r.id.startsWith('security/'))
        .map((r) => r.id)
        .sort(),
    );
    expect(DRAFT_RULES.map((r) => r.id).sort()).toEqual(
      [
        ...SECURITY_RULES.map((r) => r.id),
        'note/frontmatter-invalid',
        'note/frontmatter-schema',
        'memory/data-dump',
        'memory/duplicates-context-file',
        'memory/session-residue',
      ].sort(),
    );
  });
});

describe('version', () => {
  it('equals package.json', async () => {
    const { VERSION } = await import('../src/version.js');
    const pkg = JSON.parse((await import('node:fs')).readFileSync('package.json', 'utf8'));
    expect(VERSION).toBe(pkg.version);
  });
});

describe('README', () => {
  it('lists every rule exactly as the registry describes it', async () => {
    const { rulesMarkdown } = await import('../src/commands/rules.js');
    const readme = (await import('node:fs')).readFileSync('README.md', 'utf8');
    const start = readme.indexOf('\n', readme.indexOf('<!-- rules:start')) + 1;
    const end = readme.indexOf('<!-- rules:end -->');
    expect(readme.slice(start, end)).toBe(rulesMarkdown());
  });
});
