/**
 * A file rule's findings on a file may depend on that file and the config only (check --cache reuses
 * them while the file is unchanged). Checked for every file rule: on each file of the demo vault
 * and of every corpus vault, the findings in the whole vault equal those in a vault of that file alone.
 */
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { runRules } from '../src/rules/engine.js';
import { RULES } from '../src/rules/index.js';
import { loadVault } from '../src/vault/load.js';
import { vaultFromText } from '../src/vault/from-text.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';

const FILE_RULES = RULES.filter((r) => r.checkFile !== undefined);

function expectAlone(dir: string): void {
  const vault = loadVault(dir, { config: DEFAULT_CONFIG });
  const whole = runRules(vault, FILE_RULES).findings;
  let compared = 0;
  for (const file of vault.files) {
    if (file.problem !== null) continue; // text held in memory is re-encoded: only clean files compare
    const alone = vaultFromText(
      vault.root,
      DEFAULT_CONFIG,
      [{ path: file.path, text: file.text, role: file.role }],
      vault.kind,
    );
    const own = runRules(alone, FILE_RULES).findings;
    expect(own, file.path).toEqual(whole.filter((f) => f.file === file.path));
    compared++;
  }
  expect(compared).toBeGreaterThan(0);
}

describe('file rules look at one file only', () => {
  it('are the ones expected', () => {
    expect(FILE_RULES.map((r) => r.id).sort()).toEqual([
      'file/unreadable',
      'index/lost-correction',
      'memory/data-dump',
      'memory/session-residue',
      'note/frontmatter-invalid',
      'note/frontmatter-schema',
      'note/missing-rationale',
      'security/exfiltration',
      'security/invisible-unicode',
      'security/persistence',
      'security/prompt-injection',
      'security/secret',
    ]);
  });

  it('on the demo vault', () => expectAlone(join(process.cwd(), 'fixtures', 'demo-vault')));

  it
    .skipIf(!hasCorpus)
    .each([...corpusVaults('claude'), ...corpusVaults('hermes')].map((v) => [basename(v), v] as const))(
    'on %s',
    (_id, dir) => expectAlone(dir),
  );
});
