import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogLine } from '../src/catalog/build.js';
import { checkVault } from '../src/check.js';
import type { NoteMeta, VaultFile } from '../src/vault/model.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
import { copyToTemp, runBin } from './helpers/run.js';

describe('catalog', () => {
  it('--write then check: no orphan, no stale catalog; --check passes; a second --write changes nothing', async () => {
    const dir = copyToTemp(join('fixtures', 'note', 'orphan', 'unlinked-note', 'vault'));
    expect((await checkVault(dir)).findings.some((f) => f.ruleId === 'note/orphan')).toBe(true);
    expect(runBin(['catalog', dir, '--write']).code).toBe(0);
    const written = readFileSync(join(dir, 'CATALOG.md'), 'utf8');
    expect(written).toContain('- [b](b.md) — about b');
    const after = await checkVault(dir);
    expect(after.findings.filter((f) => f.ruleId === 'note/orphan' || f.ruleId === 'catalog/stale')).toEqual([]);
    expect(runBin(['catalog', dir, '--check']).code).toBe(0);
    expect(runBin(['catalog', dir, '--write']).stdout).toMatch(/already up to date/);
    expect(readFileSync(join(dir, 'CATALOG.md'), 'utf8')).toBe(written);
  });

  it('does not copy a credential from a note description into CATALOG.md: the line shows it masked', async () => {
    const dir = copyToTemp(join('fixtures', 'note', 'orphan', 'unlinked-note', 'vault'));
    const token = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    writeFileSync(
      join(dir, 'c.md'),
      `---\nname: c\ndescription: deploy token ${token}\ntype: reference\n---\nSee the description.\n`,
    );
    expect(runBin(['catalog', dir, '--write']).code).toBe(0);
    const written = readFileSync(join(dir, 'CATALOG.md'), 'utf8');
    expect(written).toMatch(/- \[c\]\(c\.md\) — deploy token ghp_… \(40 characters\)$/m);
    expect(written).not.toContain(token.slice(8, 20));
    const after = await checkVault(dir);
    // The note itself is still reported; the catalog adds no second copy and is not stale.
    expect(after.findings.filter((f) => f.file === 'CATALOG.md').map((f) => f.ruleId)).toEqual([]);
    expect(after.findings.some((f) => f.file === 'c.md' && f.ruleId.startsWith('security/'))).toBe(true);
  });

  it('groups by type, configured types first, untyped last, sorted by path', () => {
    const dir = copyToTemp(join('fixtures', 'demo-vault'));
    const text = runBin(['catalog', dir]).stdout;
    const headings = text.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## user (2)',
      '## feedback (5)',
      '## project (3)',
      '## reference (2)',
      '## decision (1)',
      '## (untyped) (2)',
    ]);
  });

  it.skipIf(!hasCorpus)('after --write, no corpus vault has an orphan that the catalog lists', async () => {
    for (const src of corpusVaults('claude')) {
      const dir = copyToTemp(src);
      runBin(['catalog', dir, '--write']);
      const r = await checkVault(dir);
      expect(
        r.findings.filter((f) => f.ruleId === 'note/orphan' || f.ruleId === 'catalog/stale'),
        src,
      ).toEqual([]);
    }
  });
});

describe('catalogLine, memoized by front matter object', () => {
  // The gate builds a catalog per trial; notes it leaves unchanged keep their front matter object. A line is
  // reused only when the name, description, stem and path it was made of are all the same.
  const note = (meta: object, stem: string, path: string): VaultFile => ({ meta, stem, path }) as unknown as VaultFile;
  const meta = (name: string | null, description: string | null): NoteMeta => ({
    name,
    description,
    type: 'reference',
    modified: null,
    origin: null,
    shape: 'flat',
  });

  it('gives the line of the note it is asked about, whatever it made before for the same front matter object', () => {
    const m = meta('alpha', 'about alpha');
    expect(catalogLine(note(m, 'alpha', 'alpha.md'))).toBe('- [alpha](alpha.md) — about alpha');
    expect(catalogLine(note(m, 'alpha', 'alpha.md'))).toBe('- [alpha](alpha.md) — about alpha');
    // Same object, another path or stem (a note moved): a new line.
    expect(catalogLine(note(m, 'alpha', 'sub/alpha.md'))).toBe('- [alpha](sub/alpha.md) — about alpha');
    const unnamed = meta(null, null);
    expect(catalogLine(note(unnamed, 'beta', 'beta.md'))).toBe('- [beta](beta.md)');
    expect(catalogLine(note(unnamed, 'gamma', 'beta.md'))).toBe('- [gamma](beta.md)');
    // Same object with other strings in it (front matter objects are not frozen): a new line.
    const changing = meta('delta', 'one') as { name: string | null; description: string | null };
    expect(catalogLine(note(changing, 'delta', 'delta.md'))).toBe('- [delta](delta.md) — one');
    changing.description = 'two';
    expect(catalogLine(note(changing, 'delta', 'delta.md'))).toBe('- [delta](delta.md) — two');
    changing.name = 'epsilon';
    expect(catalogLine(note(changing, 'delta', 'delta.md'))).toBe('- [epsilon](delta.md) — two');
  });
});
