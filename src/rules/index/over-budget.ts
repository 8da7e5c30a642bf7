import { defineRule } from '../types.js';

/** How a measure reads in a message. */
export const unitName = (measure: 'utf16' | 'utf8'): string => (measure === 'utf16' ? 'UTF-16 units' : 'bytes');

export default defineRule({
  id: 'index/over-budget',
  meta: {
    description: 'The index is longer than the harness loads into a session.',
    severity: 'error',
    tags: ['index', 'budget'],
    kinds: ['claude'],
    docs: {
      why: 'Claude Code trims MEMORY.md, keeps its first 200 lines, then cuts what is longer than 25,000 UTF-16 code units at the last newline before that (truncateEntrypointContent in src/memdir/memdir.ts), and drops the rest: every entry past the cut is invisible to the agent.',
      fix: 'Move low-priority lines to the catalog or into topic notes (`memlint consolidate` proposes which), or shorten entries. `index.maxLines` / `index.maxBytes` change the limits, `index.measure` the unit (utf16 or utf8).',
    },
    messages: {
      over: '{file} is over budget ({lines} lines, {bytes} {unit}; limits {maxLines} lines, {maxBytes} {unit}): only {loadedLines} lines are loaded, {lost} index entries from here on are never seen',
    },
  },
  check({ vault, report }) {
    const info = vault.indexInfo;
    if (!info || !vault.index || !info.truncated) return;
    report({
      messageId: 'over',
      file: vault.index,
      line: info.cutLine ?? info.loadedLines + 1,
      column: 1,
      data: {
        file: info.file,
        lines: info.lines,
        bytes: info.bytes,
        maxLines: info.maxLines,
        maxBytes: info.maxBytes,
        measure: info.measure,
        unit: unitName(info.measure),
        loadedLines: info.loadedLines,
        lost: info.lostEntries.length,
        lostTargets: info.lostEntries.map((e) => e.target),
      },
    });
  },
});
