import { defineRule } from '../types.js';

export default defineRule({
  id: 'index/over-budget',
  meta: {
    description: 'The index is longer than the harness loads into a session.',
    severity: 'error',
    tags: ['index', 'budget'],
    kinds: ['claude'],
    docs: {
      why: 'Claude Code reads only the first 200 lines or 25,000 bytes of MEMORY.md (cut at the last newline under the limit) and silently drops the rest: every entry past the cut is invisible to the agent.',
      fix: 'Move low-priority lines to the catalog or into topic notes (`memlint consolidate` proposes which), or shorten entries. `index.maxLines` / `index.maxBytes` change the limits.',
    },
    messages: {
      over: '{file} is over budget ({lines} lines, {bytes} bytes; limits {maxLines} lines, {maxBytes} bytes): only {loadedLines} lines are loaded, {lost} index entries from here on are never seen',
    },
  },
  check({ vault, report }) {
    const info = vault.indexInfo;
    if (!info || !vault.index || info.loadedLines >= info.lines) return;
    report({
      messageId: 'over',
      file: vault.index,
      line: info.loadedLines + 1,
      column: 1,
      data: {
        file: info.file, lines: info.lines, bytes: info.bytes, maxLines: info.maxLines, maxBytes: info.maxBytes,
        loadedLines: info.loadedLines, lost: info.lostEntries.length, lostTargets: info.lostEntries.map((e) => e.target),
      },
    });
  },
});
