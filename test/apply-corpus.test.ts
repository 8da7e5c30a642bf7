import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveAll, proposeInto } from './helpers/proposal.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
import { copyToTemp, runBin } from './helpers/run.js';
import { expectSameTree, snapshotTree } from './helpers/snapshot.js';

const noState = (m: Map<string, string>): Map<string, string> => new Map([...m].filter(([k]) => !k.startsWith('.memlint')));

describe.skipIf(!hasCorpus)('real vaults: consolidate, approve every item, execute, check, undo', () => {
  it.each(corpusVaults('claude').map((v) => [basename(v), v] as const))('%s', (_n, src) => {
    const vault = copyToTemp(src);
    const before = snapshotTree(vault, { mtime: 'ms' });
    const proposal = proposeInto(vault, join(vault, '..', 'p.yaml'));
    approveAll(proposal);
    const r = runBin(['apply', proposal, '--execute']);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(r.stderr).toBe('');
    const check = runBin(['check', vault, '--format', 'json']);
    expect([0, 1]).toContain(check.code);
    expect(JSON.parse(check.stdout).findings.some((f: { ruleId: string }) => f.ruleId === 'internal/rule-crashed')).toBe(false);
    if (/run id: /.test(r.stdout)) {
      const u = runBin(['undo', '--vault', vault]);
      expect(u.code, u.stderr).toBe(0);
    }
    expectSameTree(noState(snapshotTree(vault, { mtime: 'ms' })), noState(before));
  });
});
