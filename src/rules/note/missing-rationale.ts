import { defineRule } from '../types.js';
import { isReadable } from '../reachability.js';

export const WHY = /\*\*Why:?\*\*|^#{1,6}\s*Why\b|^Why:/im;
export const HOW = /\*\*How to apply:?\*\*|^#{1,6}\s*How to apply\b|^How to apply:/im;

export default defineRule({
  id: 'note/missing-rationale',
  meta: {
    description: 'A feedback or project note without **Why:** or **How to apply:**.',
    severity: 'info',
    tags: ['content'],
    kinds: ['claude'],
    docs: {
      why: 'A rule without its reason is applied blindly or dropped; without "how to apply" the agent cannot tell when it holds.',
      fix: 'Add a `**Why:**` line and a `**How to apply:**` section.',
    },
    messages: { missing: '{type} note has no {missing}' },
  },
  // Only a note with front matter has a type, and such a note is always under the note rules.
  checkFile(note, { report }) {
    const type = note.meta.type;
    if (note.role !== 'note' || !isReadable(note) || (type !== 'feedback' && type !== 'project')) return;
    const body = note.text.slice(note.bodyOffset);
    const missing = [WHY.test(body) ? null : '**Why:**', HOW.test(body) ? null : '**How to apply:**'].filter(Boolean);
    if (missing.length)
      report({
        messageId: 'missing',
        file: note,
        offset: note.bodyOffset,
        data: { type, missing: missing.join(' or ') },
      });
  },
});
