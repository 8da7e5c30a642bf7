import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/near-budget',
  meta: {
    description: 'A Hermes store is past 80% of its budget.',
    severity: 'warning',
    tags: ['hermes', 'budget'],
    kinds: ['hermes'],
    docs: {
      why: 'Hermes advises consolidating at 80% of the budget: past it, the next few memories do not fit.',
      fix: 'Consolidate now. `hermes.nearBudget` (default 0.8) sets the threshold.',
    },
    messages: { near: '{file} uses {pct}% of its budget ({chars}/{max} characters)' },
  },
  check({ vault, report }) {
    const share = vault.config.hermes.nearBudget;
    for (const s of vault.stores) {
      if (s.chars > s.maxChars || s.chars <= s.maxChars * share) continue;
      report({
        messageId: 'near',
        file: vault.byPath.get(s.file)!,
        line: 1,
        column: 1,
        data: { file: s.file, chars: s.chars, max: s.maxChars, pct: Math.round((s.chars / s.maxChars) * 100) },
      });
    }
  },
});
