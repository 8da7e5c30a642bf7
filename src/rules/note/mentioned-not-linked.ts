import { defineRule } from '../types.js';
import { notesUnderRules, reachability } from '../reachability.js';

export default defineRule({
  id: 'note/mentioned-not-linked',
  meta: {
    description: 'A note reached only through a backticked file name, not a link.',
    severity: 'info',
    tags: ['links'],
    kinds: ['claude'],
    docs: {
      why: 'Agents follow `` `feedback_x.md` `` mentions less reliably than links, and tools cannot follow them at all.',
      fix: 'Turn the mention into a link: `[feedback_x](feedback_x.md)`.',
    },
    messages: { mentioned: '{path} is only mentioned by file name, never linked' },
  },
  check({ vault, report }) {
    const { linked, mentioned } = reachability(vault);
    for (const note of notesUnderRules(vault)) {
      if (mentioned.has(note.path) && !linked.has(note.path)) {
        report({ messageId: 'mentioned', file: note, line: 1, column: 1, data: { path: note.path } });
      }
    }
  },
});
