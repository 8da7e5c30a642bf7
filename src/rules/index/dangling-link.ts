import { defineRule } from '../types.js';

export default defineRule({
  id: 'index/dangling-link',
  meta: {
    description: 'An index line links a note that does not exist.',
    severity: 'error',
    tags: ['index', 'links'],
    kinds: ['claude'],
    docs: {
      why: 'The agent is told a memory exists and where, but the file is gone or renamed: it either fails to read it or acts on the one-line hook alone.',
      fix: 'Point the line at the right file (the message suggests one when a similar name exists) or delete the line.',
    },
    messages: {
      missing: 'index links {shown}, which does not exist{hint}',
      outside: 'index links {target}, outside the vault: memlint cannot verify it',
    },
  },
  check({ vault, report }) {
    for (const file of [vault.index, ...vault.secondaryIndexes]) {
      if (!file) continue;
      for (const link of file.links) {
        if (link.kind === 'mention') continue;
        if (link.resolution === 'missing') {
          report({
            messageId: 'missing',
            file,
            offset: link.offset,
            length: link.length,
            data: {
              target: link.target,
              shown: link.kind === 'wikilink' ? `[[${link.target}]]` : link.target,
              suggestion: link.suggestion,
              hint: link.suggestion ? ` (did you mean ${link.suggestion}?)` : '',
            },
          });
        } else if (link.resolution === 'outside' && /\.md(#.*)?$/i.test(link.target)) {
          report({
            messageId: 'outside',
            file,
            offset: link.offset,
            length: link.length,
            severity: 'warning',
            data: { target: link.target },
          });
        }
      }
    }
  },
});
