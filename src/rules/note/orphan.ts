import { defineRule } from '../types.js';
import { notesUnderRules, reachability } from '../reachability.js';

export default defineRule({
  id: 'note/orphan',
  meta: {
    description: 'A note that no index reaches.',
    severity: 'error',
    tags: ['index', 'links'],
    kinds: ['claude'],
    docs: {
      why: 'The agent finds notes through MEMORY.md (and the catalog and secondary indexes it links). A note nothing points to is never loaded: the memory exists on disk and nowhere else.',
      fix: 'Link it from MEMORY.md or a note that is linked, run `memlint catalog --write`, or retire it (`memlint consolidate` proposes which).',
    },
    messages: { orphan: '{path} is not reachable from {index}, the catalog or a secondary index' },
  },
  check({ vault, report }) {
    const { mentioned } = reachability(vault);
    for (const note of notesUnderRules(vault)) {
      if (mentioned.has(note.path)) continue;
      report({
        messageId: 'orphan',
        file: note,
        line: 1,
        column: 1,
        data: { path: note.path, index: vault.config.index.file },
      });
    }
  },
});
