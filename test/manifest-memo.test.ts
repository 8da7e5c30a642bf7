// A vault's manifest is made once per vault (src/proposal/refs.ts): the post-state gate plans every trial against it,
// and each planning asked for it again (sorting and hashing a line per file: ~7 times at hard 10k). Same answer as
// the definition: the sha256 of the sorted "path<TAB>sha256 of its bytes" lines.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planApply } from '../src/apply/plan.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { manifestOf } from '../src/proposal/refs.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { loadVault } from '../src/vault/load.js';

const sha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

describe('manifestOf', () => {
  it('is made once per vault, and is the hash of the sorted path and file-hash lines', () => {
    const vault = loadVault('fixtures/demo-vault', { config: DEFAULT_CONFIG });
    const other = loadVault('fixtures/demo-vault', { config: DEFAULT_CONFIG });
    const lines = vault.files.map((f) => `${f.path}\t${sha(f.bytes)}`).sort();
    startCounting();
    const first = manifestOf(vault);
    const proposal = {
      version: 1,
      tool: 't',
      vault: vault.root,
      kind: vault.kind,
      createdAt: '',
      manifest: first,
      summary: {},
      items: [],
    };
    planApply(proposal as never, vault, 'a');
    planApply(proposal as never, vault, 'b');
    expect(manifestOf(vault)).toBe(first);
    expect(manifestOf(other)).toBe(first);
    const counts = stopCounting();
    expect(first).toBe(sha(lines.join('\n')));
    // One for each vault object, however often it is asked for.
    expect(counts['proposal.manifests']).toBe(2);
  });
});
