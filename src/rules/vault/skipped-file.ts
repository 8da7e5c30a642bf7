import { defineRule } from '../types.js';

export default defineRule({
  id: 'vault/skipped-file',
  meta: {
    description: 'A symbolic link that leaves the vault, points nowhere or loops, or a file that could not be read.',
    severity: 'warning',
    tags: ['file', 'security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'memlint never follows a link out of the vault (a note could otherwise pull in any file on the machine) and never loops; the link is reported instead of read.',
      fix: 'Replace the link with the file itself, or remove it.',
    },
    messages: {
      'symlink-outside': '{detail}: not read',
      'symlink-broken': '{detail}: not read',
      unreadable: 'could not be read ({detail})',
      'symlink-duplicate': '{detail}',
      'bad-name': '{detail}: read and checked under this name; a link cannot name it',
    },
  },
  check({ vault, report }) {
    for (const s of vault.skipped) {
      if (s.reason === 'ignored') continue;
      report({
        messageId: s.reason,
        file: s.path,
        line: 1,
        column: 1,
        severity: s.reason === 'symlink-duplicate' ? 'info' : undefined,
        data: { detail: s.detail },
      });
    }
  },
});
