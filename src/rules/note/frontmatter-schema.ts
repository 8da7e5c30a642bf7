import { defineRule } from '../types.js';
import { isReadable } from '../reachability.js';

export default defineRule({
  id: 'note/frontmatter-schema',
  meta: {
    description: 'Front matter without name, description or an allowed type; values YAML silently cut.',
    severity: 'error',
    tags: ['frontmatter'],
    kinds: ['claude'],
    docs: {
      why: 'The harness indexes and recalls notes by `name`, `description` and `type`; a missing one hides the note, and a plain value containing ` #` is cut there by YAML without a word.',
      fix: 'Add the missing key (flat, or under `metadata:` for `type`), use a type from `types` in config, and quote values that contain ` #`.',
    },
    messages: {
      missing: 'front matter has no {key}',
      empty: 'front matter {key} is empty',
      type: 'type "{type}" is not one of {allowed}',
      cut: '{key} is cut at " #": YAML keeps "{kept}" and drops "#{cut}" as a comment; quote the value',
    },
  },
  // A note with front matter is always under the note rules (notesUnderRules): a per-file rule.
  checkFile(note, { vault, report }) {
    const allowed = vault.config.types;
    const fm = note.frontmatter;
    if (note.role !== 'note' || !isReadable(note) || !fm || fm.error || !fm.data) return;
    const at = fm.yamlOffset > 0 ? fm.yamlOffset - 1 : 0;
    for (const key of ['name', 'description', 'type'] as const) {
      const value = note.meta[key];
      if (value === null) report({ messageId: 'missing', file: note, offset: 0, data: { key } });
      else if (value.trim() === '')
        report({
          messageId: 'empty',
          file: note,
          offset: keyOffset(note.text, fm.yamlOffset, fm.yaml.length, key) ?? at,
          data: { key },
        });
    }
    const type = note.meta.type;
    if (type && type.trim() !== '' && !allowed.includes(type)) {
      report({
        messageId: 'type',
        file: note,
        offset: keyOffset(note.text, fm.yamlOffset, fm.yaml.length, 'type') ?? at,
        data: { type, allowed: allowed.join(', ') },
      });
    }
    for (const cut of fm.cutValues) {
      report({
        messageId: 'cut',
        file: note,
        offset: cut.offset,
        severity: 'warning',
        data: { key: cut.key, kept: cut.kept, cut: cut.cut },
      });
    }
  },
});

/** Offset of `key:` in the front matter (top level or nested), for a precise position. */
function keyOffset(text: string, from: number, length: number, key: string): number | null {
  const re = new RegExp(`^[ \\t]*${key}[ \\t]*:`, 'm');
  const m = re.exec(text.slice(from, from + length));
  return m ? from + m.index + m[0].indexOf(key) : null;
}
