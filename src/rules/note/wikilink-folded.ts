import { defineRule } from '../types.js';

export default defineRule({
  id: 'note/wikilink-folded',
  meta: {
    description: 'A `[[wikilink]]` that matches a note only after folding case and -/_.',
    severity: 'info',
    tags: ['links'],
    kinds: ['claude'],
    docs: {
      why: 'It resolves here, but a stricter reader (another tool, a case-sensitive file system) will not find it.',
      fix: 'Spell the link exactly as the file stem or `name`.',
    },
    messages: { folded: '[[{target}]] matches {resolved} only after folding case and -/_' },
  },
  check({ vault, report }) {
    for (const file of vault.files) {
      for (const link of file.links) {
        if (link.kind === 'wikilink' && link.resolution === 'folded') {
          report({
            messageId: 'folded',
            file,
            offset: link.offset,
            length: link.length,
            data: { target: link.target, resolved: link.resolved },
          });
        }
      }
    }
  },
});
