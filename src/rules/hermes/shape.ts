import { hasSeparatorLine } from '../../vault/hermes.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'hermes/shape',
  meta: {
    description:
      'Where Hermes reads a store differently than it looks: no § separators, an inline §, a BOM, headings or banners taken as entries.',
    severity: 'warning',
    escalates: true,
    tags: ['hermes'],
    kinds: ['hermes'],
    docs: {
      why: 'Hermes splits a store only on a line holding just "§" ("\\n§\\n" after reading CRLF and CR as "\\n"). Paragraphs without it are one entry; a § inside a line splits nothing; a heading or a banner line between separators becomes an entry of its own; a BOM stays in the text as the first character of entry 1, and Hermes keeps that entry out of the prompt as invisible Unicode.',
      fix: 'Put each memory between lines holding only §; remove headings, banners and the BOM (save as UTF-8 without BOM).',
    },
    messages: {
      'no-separator': '{file} has no "§" separator line: Hermes reads its {paragraphs} paragraphs as one entry',
      inline: 'a "§" inside a line: Hermes does not split here',
      bom: '{file} starts with a BOM: Hermes keeps it as the first character of entry 1 and blocks that entry from the prompt as invisible Unicode (U+FEFF)',
      heading: 'entry {entry} is only a heading or a banner: Hermes stores it as a memory of its own',
    },
  },
  check({ vault, report }) {
    for (const s of vault.stores) {
      const file = vault.byPath.get(s.file)!;
      const text = file.text;
      if (!hasSeparatorLine(text)) {
        const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim()).length;
        if (paragraphs > 1)
          report({ messageId: 'no-separator', file, line: 1, column: 1, data: { file: s.file, paragraphs } });
      }
      if (file.bom && s.entries.length)
        report({ messageId: 'bom', file, line: 1, column: 1, severity: 'error', data: { file: s.file } });
      for (const m of text.matchAll(/[^\n\r]§|§[^\n\r]/g)) {
        const at = m[0].startsWith('§') ? m.index : m.index + 1;
        if (hasSeparatorLine(text.slice(Math.max(0, at - 2), at + 3))) continue;
        report({ messageId: 'inline', file, offset: at });
      }
      for (const e of s.entries) {
        if (/^(#{1,6}\s.*|[=\-*_~#]{3,}.*|.*[=\-*_~#]{5,})$/.test(e.text) && !e.text.includes('\n'))
          report({ messageId: 'heading', file, offset: e.offset, data: { entry: e.index } });
      }
    }
  },
});
