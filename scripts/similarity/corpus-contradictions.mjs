// Runs consolidate on every corpus vault and prints its contradiction items as JSON lines
// (vault, the two paths, kind, detail, the two sentences): the input for labelling
// test/data/contradiction-corpus-labels.json. Run after `npm run build`:
//   node scripts/similarity/corpus-contradictions.mjs [../shared/corpus] > items.jsonl
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const { loadVault, DEFAULT_CONFIG } = await import('../../dist/lib/index.js');
const { consolidateVault } = await import('../../dist/lib/consolidate/consolidate.js');
const corpus = process.argv[2] ?? join(process.cwd(), '..', 'shared', 'corpus');
let notes = 0;
for (const kind of ['claude', 'hermes']) {
  const dir = join(corpus, kind);
  if (!existsSync(dir)) continue;
  for (const v of readdirSync(dir).sort()) {
    const vault = loadVault(join(dir, v), { config: DEFAULT_CONFIG });
    const proposal = consolidateVault(vault, { now: new Date(0) });
    notes += proposal.summary?.notes ?? 0;
    for (const item of proposal.items.filter((i) => i.kind === 'contradiction')) {
      for (const c of item.evidence.conflicts) {
        process.stdout.write(
          `${JSON.stringify({ vault: `${kind}/${v}`, a: item.notes[0].path, b: item.notes[1].path, kind: c.kind, detail: c.detail, sa: c.a.text, sb: c.b.text })}\n`,
        );
      }
    }
    process.stderr.write(
      `${kind}/${v}: ${proposal.summary?.notes} notes, ${proposal.items.filter((i) => i.kind === 'contradiction').length} contradiction items, ${proposal.summary?.sentenceComparisons} sentence comparisons\n`,
    );
  }
}
process.stderr.write(`notes ${notes}\n`);
