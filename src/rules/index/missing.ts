import { defineRule } from '../types.js';

export default defineRule({
  id: 'index/missing',
  meta: {
    description: 'A vault with notes has no index file.',
    severity: 'error',
    tags: ['index'],
    kinds: ['claude'],
    docs: {
      why: 'Without MEMORY.md the harness loads nothing: no note in the vault reaches the agent.',
      fix: 'Create the index (`index.file`, default MEMORY.md) with one line per note, or run `memlint catalog --write` and link the catalog from it.',
    },
    messages: { missing: 'no {file} in a vault of {notes} note(s): the agent loads none of them' },
  },
  check({ vault, report }) {
    if (vault.index || vault.notes.length === 0) return;
    report({
      messageId: 'missing',
      file: vault.config.index.file,
      line: 1,
      column: 1,
      data: { file: vault.config.index.file, notes: vault.notes.length },
    });
  },
});
