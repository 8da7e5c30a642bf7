import { defineRule } from '../types.js';

export default defineRule({
  id: 'note/frontmatter-invalid',
  meta: {
    description: 'Front matter that a YAML parser rejects.',
    severity: 'error',
    tags: ['frontmatter'],
    kinds: ['claude'],
    docs: {
      why: 'The harness and every tool see no name, description or type for the note: it loses its place in indexes and searches. In real vaults the cause is nearly always an unquoted `description:` containing `: `.',
      fix: 'Quote the value (`description: "Fix: use X"`) or correct the YAML at the reported line.',
    },
    messages: { invalid: 'front matter is not valid YAML: {reason}' },
  },
  checkFile(note, { report }) {
    const fm = note.frontmatter;
    if (note.role !== 'note' || !fm?.error) return;
    report({ messageId: 'invalid', file: note, offset: fm.error.offset, data: { reason: fm.error.message } });
  },
});
