import { defineRule } from '../types.js';

export default defineRule({
  id: 'note/broken-wikilink',
  meta: {
    description: 'A `[[wikilink]]` that matches no note.',
    severity: 'warning',
    tags: ['links'],
    kinds: ['claude'],
    docs: {
      why: "The link leads nowhere. A warning by default because Claude Code's own guidance allows `[[name]]` for a note still to be written.",
      fix: 'Correct the name (the message suggests the closest one) or write the note.',
    },
    messages: { broken: '[[{target}]] matches no note by file name or `name`{hint}' },
  },
  check({ vault, report }) {
    for (const file of vault.files) {
      for (const link of file.links) {
        if (link.kind !== 'wikilink' || link.resolution !== 'missing') continue;
        if (file.role === 'index' || file.role === 'secondary-index') continue; // index/dangling-link
        report({
          messageId: 'broken',
          file,
          offset: link.offset,
          length: link.length,
          data: {
            target: link.target,
            suggestion: link.suggestion,
            hint: link.suggestion ? ` (did you mean [[${link.suggestion}]]?)` : '',
          },
        });
      }
    }
  },
});
