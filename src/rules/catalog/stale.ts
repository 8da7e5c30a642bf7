import { buildCatalog } from '../../catalog/build.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'catalog/stale',
  meta: {
    description: 'The catalog file differs from what `memlint catalog` would write.',
    severity: 'error',
    tags: ['catalog'],
    kinds: ['claude'],
    docs: {
      why: 'A stale catalog lists notes that are gone and misses new ones, which then become orphans.',
      fix: 'Run `memlint catalog --write`.',
    },
    messages: {
      stale:
        '{file} is stale ({missing} note lines missing or changed, {extra} outdated); run `memlint catalog --write`',
      absent: '{file} does not exist; run `memlint catalog --write`',
    },
  },
  check({ vault, report }) {
    const file = vault.catalog;
    const name = vault.config.catalog.file;
    if (!file) {
      if (vault.config.catalog.required && vault.notes.length > 0)
        report({ messageId: 'absent', file: name, line: 1, column: 1, data: { file: name } });
      return;
    }
    const expected = buildCatalog(vault);
    if (file.text === expected) return;
    const want = new Set(expected.split('\n').filter((l) => l.startsWith('- ')));
    const have = file.text.replace(/\r\n/g, '\n').split('\n');
    const haveSet = new Set(have.filter((l) => l.startsWith('- ')));
    const missing = [...want].filter((l) => !haveSet.has(l)).length;
    const extra = [...haveSet].filter((l) => !want.has(l)).length;
    const firstDiff = expected.split('\n').findIndex((l, i) => have[i] !== l);
    report({
      messageId: 'stale',
      file,
      line: Math.max(1, firstDiff + 1),
      column: 1,
      data: { file: file.path, missing, extra },
    });
  },
});
