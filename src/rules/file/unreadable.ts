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
      'too-large': 'too large to read whole ({detail})',
    },
  },
  checkFile(file, { report }) {
    const p = file.problem;
    if (!p) return;
    report({
      messageId: p.kind,
      file,
      offset: p.offset,
      severity: p.kind === 'too-large' ? 'warning' : 'error',
      data: { detail: p.detail },
    });
  },
});
