import { defineRule } from '../types.js';
import { notesUnderRules } from '../reachability.js';

export default defineRule({
  id: 'note/duplicate-name',
  meta: {
    description: 'Two notes share one `name`.',
    severity: 'error',
    tags: ['frontmatter', 'links'],
    kinds: ['claude'],
    docs: {
      why: "`[[name]]` links and the harness's recall pick one of them arbitrarily; usually the same fact was saved twice.",
      fix: 'Merge the two notes (`memlint consolidate` proposes it) or rename one.',
    },
    messages: { duplicate: 'name "{name}" is also used by {first}' },
  },
  check({ vault, report }) {
    const first = new Map<string, (typeof vault.notes)[number]>();
    for (const note of notesUnderRules(vault)) {
      const name = note.meta.name?.trim();
      if (!name) continue;
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, note);
        continue;
      }
      const fm = note.frontmatter!;
      const m = /^[ \t]*name[ \t]*:/m.exec(fm.yaml);
      report({
        messageId: 'duplicate',
        file: note,
        offset: m ? fm.yamlOffset + m.index : 0,
        data: { name, first: earlier.path },
        related: [{ file: earlier.path, line: 1, column: 1, message: 'first defined here' }],
      });
    }
  },
});
