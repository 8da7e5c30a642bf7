import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { factText } from '../src/apply/gate.js';
import { approveAll, proposeInto } from './helpers/proposal.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { copyToTemp, runBin } from './helpers/run.js';
import { expectSameTree, snapshotTree } from './helpers/snapshot.js';

const noState = (m: Map<string, string>): Map<string, string> =>
  new Map([...m].filter(([k]) => !k.startsWith('.memlint')));
const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');

const errors = (vault: string): Map<string, number> => {
  const out = new Map<string, number>();
  for (const f of JSON.parse(runBin(['check', vault, '--format', 'json']).stdout).findings as {
    ruleId: string;
    file: string;
    message: string;
    severity: string;
  }[]) {
    if (f.severity !== 'error') continue;
    const key = `${f.ruleId} ${f.file} ${f.message.replace(/\d+/g, '#')}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
};

/** The words of every index line, and the text of every markdown file after the run. */
function lostIndexLines(before: string, after: string): string[] {
  const index = join(before, 'MEMORY.md');
  let lines: string[];
  try {
    lines = readFileSync(index, 'utf8').split('\n');
  } catch {
    return [];
  }
  const haystack = markdownFilesUnder(after)
    .filter((f) => !f.includes('/.memlint/'))
    .map((f) => readFileSync(f, 'utf8').split('\n').map(factText).join('\n'))
    .join('\n');
  // A pointer line to a note the run retired goes with the note (kept in the holding folder).
  const retiredPointer = (line: string): boolean =>
    [...line.matchAll(/\]\(<?([^)>#]+)/g)].some(
      (m) => existsSync(join(before, m[1]!)) && !existsSync(join(after, m[1]!)),
    );
  return lines
    .filter((l) => !retiredPointer(l))
    .map(factText)
    .filter((t) => t !== '' && !/^[#>|:\-=*_\s`]*$/.test(t) && !haystack.includes(t));
}

const vaults = [
  ['demo-vault', DEMO] as const,
  ...[...corpusVaults('claude'), ...corpusVaults('hermes')].map((v) => [basename(v), v] as const),
];

describe.skipIf(!hasCorpus)('real vaults: consolidate, approve every item, execute, check, undo', () => {
  it.each(vaults)(
    '%s: no item refused, no new error, no index text lost; undo is byte-identical',
    (_n, src) => {
      const vault = copyToTemp(src);
      const pristine = copyToTemp(src, 'pristine');
      // Index splits and orphan lines are info by default (measured below 0.8): a person may still opt in, and
      // approving everything must stay safe then too, so this vault proposes them.
      const config = join(vault, 'memlint.config.json');
      if (!existsSync(config))
        writeFileSync(
          config,
          '{ "consolidate": { "propose": { "index-overflow": true, "orphan": true, "store-overflow": true } } }\n',
        );
      const before = snapshotTree(vault, { mtime: 'ms' });
      const errorsBefore = errors(vault);
      const proposal = proposeInto(vault, join(vault, '..', 'p.yaml'));
      approveAll(proposal);
      // apply's own validation accepts every item consolidate emitted.
      const dry = runBin(['apply', proposal]);
      expect(dry.stdout).not.toMatch(/: refused/);
      expect(dry.code, dry.stdout).toBe(0);
      const r = runBin(['apply', proposal, '--execute']);
      expect(r.code, r.stdout).toBe(0);
      expect(r.stderr).toBe('');
      const after = errors(vault);
      const added = [...after].filter(([k, n]) => n > (errorsBefore.get(k) ?? 0)).map(([k]) => k);
      expect(added).toEqual([]);
      // Retired notes keep their index lines' words in the holding folder; every other line's words stay in the vault.
      // A Hermes store has no index: entries a store-overflow item moves out go to the store's archive (MEMORY-archive.md) and the holding folder.
      if (!src.includes('/hermes/')) expect(lostIndexLines(pristine, vault)).toEqual([]);
      if (/run id: /.test(r.stdout)) {
        const u = runBin(['undo', '--vault', vault]);
        expect(u.code, u.stderr).toBe(0);
      }
      expectSameTree(noState(snapshotTree(vault, { mtime: 'ms' })), noState(before));
    },
    600_000,
  );
});
