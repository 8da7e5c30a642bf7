import { defineRule } from '../types.js';
import { unitName } from './over-budget.js';

export default defineRule({
  id: 'index/near-budget',
  meta: {
    description: 'The index is close to the size the harness loads.',
    severity: 'warning',
    tags: ['index', 'budget'],
    kinds: ['claude'],
    docs: {
      why: 'An index near its limit overflows with the next few notes, and the overflow is silent.',
      fix: 'Consolidate before it overflows. `index.headroom` (default 0.9) sets where the warning starts.',
    },
    messages: {
      near: '{file} uses {linePct}% of its line budget and {bytePct}% of its size budget ({lines}/{maxLines} lines, {bytes}/{maxBytes} {unit})',
    },
  },
  check({ vault, report }) {
    const info = vault.indexInfo;
    if (!info || !vault.index || info.truncated) return;
    const headroom = vault.config.index.headroom;
    const lineShare = info.lines / info.maxLines;
    const byteShare = info.bytes / info.maxBytes;
    if (lineShare <= headroom && byteShare <= headroom) return;
    report({
      messageId: 'near',
      file: vault.index,
      line: 1,
      column: 1,
      data: {
        file: info.file,
        lines: info.lines,
        bytes: info.bytes,
        maxLines: info.maxLines,
        maxBytes: info.maxBytes,
        measure: info.measure,
        unit: unitName(info.measure),
        linePct: Math.round(lineShare * 100),
        bytePct: Math.round(byteShare * 100),
      },
    });
  },
});
