import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/duplicate-entry',
  meta: {
    description: 'The same entry twice in a Hermes store.',
    severity: 'error',
    tags: ['hermes'],
    kinds: ['hermes'],
    docs: {
      why: 'An exact copy spends budget twice and says nothing new; agents re-save the same rule when they cannot see it was saved.',
      fix: 'Delete the later copy.',
    },
    messages: { dup: 'entry {entry} repeats entry {first} word for word' },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      const file = vault.byPath.get(s.file)!;
      const seen = new Map<string, number>();
      for (const e of s.entries) {
        const first = seen.get(e.sha256);
        if (first === undefined) { seen.set(e.sha256, e.index); continue; }
        const firstEntry = s.entries[first - 1]!;
        report({ messageId: 'dup', file, offset: e.offset, data: { entry: e.index, first }, related: [{ file: s.file, line: firstEntry.line, column: 1, message: 'first written here' }] });
      }
    }
  },
});
