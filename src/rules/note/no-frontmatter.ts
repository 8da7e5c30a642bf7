import { defineRule } from '../types.js';
import { isReadable } from '../reachability.js';

export default defineRule({
  id: 'note/no-frontmatter',
  meta: {
    description: 'A markdown file without front matter among notes that have it.',
    severity: 'warning',
    tags: ['frontmatter'],
    kinds: ['claude'],
    docs: {
      why: 'Either a note lost its front matter (and with it name, description and type), or it is not a note at all (README.md, a session log) and should be ignored.',
      fix: 'Add front matter, or list the file under `ignore` in memlint.config.json (e.g. `"ignore": ["README.md", "SESSION_LOG*.md"]`).',
    },
    messages: { none: '{path} has no front matter, unlike the other notes; add it or add the file to `ignore`' },
  },
  check({ vault, report }) {
    const readable = vault.notes.filter(isReadable);
    if (!readable.some((n) => n.frontmatter !== null)) return;
    for (const note of readable) {
      if (note.frontmatter === null)
        report({ messageId: 'none', file: note, line: 1, column: 1, data: { path: note.path } });
    }
  },
});
