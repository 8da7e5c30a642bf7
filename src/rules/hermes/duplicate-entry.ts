import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/duplicate-entry',
  meta: {
    description: 'The same entry twice in a Hermes store.',
    severity: 'warning',
    tags: ['hermes'],
    kinds: ['hermes'],
    docs: {
      why: 'Hermes drops the copy when it loads the store (and the next save writes the file without it), so it costs no budget; but a copy on disk means something wrote the same rule twice, usually an agent that could not see it was saved.',
      fix: 'Delete the later copy (Hermes would on its next save).',
    },
    messages: { dup: 'entry {entry} repeats entry {first} word for word: Hermes loads it once' },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      const file = vault.byPath.get(s.file)!;
      const seen = new Map<string, number>();
      for (const e of s.entries) {
        const first = seen.get(e.sha256);
        if (first === undefined) {
          seen.set(e.sha256, e.index);
          continue;
        }
        const firstEntry = s.entries[first - 1]!;
        report({
          messageId: 'dup',
          file,
          offset: e.offset,
          data: { entry: e.index, first },
          related: [{ file: s.file, line: firstEntry.line, column: 1, message: 'first written here' }],
        });
      }
    }
  },
});
