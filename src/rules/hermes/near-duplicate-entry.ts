import { similarity, THRESHOLDS } from '../../similarity/score.js';
import { shingleHashes, tokens } from '../../similarity/text.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/near-duplicate-entry',
  meta: {
    description: 'Two entries of a Hermes store that say nearly the same thing.',
    severity: 'warning',
    tags: ['hermes'],
    kinds: ['hermes'],
    docs: {
      why: 'Near-copies spend budget twice; one real store was 72% the same rule written over and over.',
      fix: 'Merge the two entries into one (`memlint consolidate` proposes it).',
    },
    messages: { near: 'entry {entry} nearly repeats entry {other} (similarity {similarity})' },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      const file = vault.byPath.get(s.file)!;
      const sets = s.entries.map((e) => shingleHashes(tokens(e.text)));
      for (let i = 0; i < s.entries.length; i++) {
        for (let j = 0; j < i; j++) {
          if (s.entries[i]!.sha256 === s.entries[j]!.sha256) continue; // hermes/duplicate-entry
          const a = sets[i]!,
            b = sets[j]!;
          if (Math.min(a.length, b.length) < 4) continue;
          const sim = similarity(a, b).score;
          if (sim < THRESHOLDS.duplicate) continue;
          report({
            messageId: 'near',
            file,
            offset: s.entries[i]!.offset,
            data: { entry: i + 1, other: j + 1, similarity: Math.round(sim * 100) / 100 },
          });
          break;
        }
      }
    }
  },
});
