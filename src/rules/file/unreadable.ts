import { defineRule } from '../types.js';

export default defineRule({
  id: 'file/unreadable',
  meta: {
    description: 'A markdown file that is binary, not valid UTF-8, or too large to read.',
    severity: 'error',
    tags: ['file'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'The harness reads memory as UTF-8 text. Invalid bytes are silently replaced, a binary file (an encrypted note, a stray export) is noise, and a huge file eats the context budget.',
      fix: 'Re-save the file as UTF-8, move non-text files out of the memory folder (or `ignore` them), split huge notes. `maxFileBytes` sets the size limit.',
    },
    messages: {
      'invalid-utf8': 'not valid UTF-8: {detail}; the harness sees U+FFFD here',
      binary: 'binary content ({detail}) in a markdown file',
      'too-large': 'too large to read ({detail}); not checked',
    },
  },
  check({ vault, report }) {
    for (const file of vault.files) {
      const p = file.problem;
      if (!p) continue;
      report({ messageId: p.kind, file, offset: p.offset, severity: p.kind === 'too-large' ? 'warning' : 'error', data: { detail: p.detail } });
    }
  },
});
