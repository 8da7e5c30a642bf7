import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/over-budget',
  meta: {
    description: 'A Hermes store holds more characters than its budget.',
    severity: 'error',
    tags: ['hermes', 'budget'],
    kinds: ['hermes'],
    docs: {
      why: 'Hermes caps MEMORY.md at 2,200 and USER.md at 1,375 characters, counted over the stripped entries joined by "\\n§\\n". Past the budget the agent cannot add memories, and ports of the format truncate.',
      fix: 'Merge or drop entries (`memlint consolidate` proposes which). `hermes.budgets` sets other budgets for ports of the format.',
    },
    messages: { over: '{file} holds {chars} characters, over its budget of {max} ({entries} entries)' },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      if (s.chars <= s.maxChars) continue;
      const file = vault.byPath.get(s.file)!;
      report({
        messageId: 'over',
        file,
        line: 1,
        column: 1,
        data: { file: s.file, chars: s.chars, max: s.maxChars, entries: s.entries.length },
      });
    }
  },
});
