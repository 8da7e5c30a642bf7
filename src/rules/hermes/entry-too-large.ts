import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/entry-too-large',
  meta: {
    description: 'One entry larger than the whole store budget.',
    severity: 'error',
    tags: ['hermes', 'budget'],
    kinds: ['hermes'],
    docs: {
      why: 'An entry that alone exceeds the budget can never fit: Hermes refuses the store or a port truncates it mid-sentence.',
      fix: 'Split it into several entries, or move the detail into a file the entry points to.',
    },
    messages: { large: 'entry {entry} alone is {chars} characters, more than the budget of {max}' },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      const file = vault.byPath.get(s.file)!;
      for (const e of s.entries) {
        const chars = [...e.text].length;
        if (chars > s.maxChars)
          report({ messageId: 'large', file, offset: e.offset, data: { entry: e.index, chars, max: s.maxChars } });
      }
    }
  },
});
