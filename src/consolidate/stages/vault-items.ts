/** Items from the checker's vault-level view: orphans, dangling index links (index overflow: index-overflow.ts). */
import { catalogLine } from '../../catalog/build.js';
import { notesUnderRules, reachability } from '../../rules/shared.js';
import type { Vault, VaultFile } from '../../vault/model.js';
import { defineStage, type ItemDraft } from '../stage.js';

/** Notes no index reaches. */
export function orphanNotes(vault: Vault): VaultFile[] {
  const { mentioned } = reachability(vault);
  return notesUnderRules(vault).filter((n) => !mentioned.has(n.path));
}

/** The index lines the orphans stage adds (none when there is no index). */
export function orphanLines(vault: Vault): string[] {
  return vault.index ? orphanNotes(vault).map((n) => catalogLine(n)) : [];
}

export const orphans = defineStage({
  id: 'orphans',
  description: 'Notes no index reaches: add a line for them to the index (or retire them).',
  run({ vault }) {
    const index = vault.config.index.file;
    const items: ItemDraft[] = [];
    for (const note of orphanNotes(vault)) {
      items.push({
        kind: 'orphan',
        paths: vault.index ? [note.path, index] : [note.path],
        evidence: { reachableFrom: [], indexFile: index },
        suggestion: 'relink',
        action: vault.index ? { type: 'fix-index', file: index, remove: [], add: [catalogLine(note)] } : { type: 'retire', retire: [note.path] },
        dependsOnManifest: Boolean(vault.index),
      });
    }
    return items;
  },
});

export const danglingLinks = defineStage({
  id: 'dangling-links',
  description: 'Index lines that link notes that do not exist: point them at the likely note, or drop the line.',
  run({ vault }) {
    const items: ItemDraft[] = [];
    for (const file of [vault.index, ...vault.secondaryIndexes]) {
      if (!file) continue;
      const lines = file.text.split('\n');
      for (const link of file.links) {
        if (link.kind === 'mention' || link.resolution !== 'missing') continue;
        const text = (lines[link.line - 1] ?? '').replace(/\r$/, '');
        items.push(link.suggestion
          ? { kind: 'dangling-link', paths: [file.path, link.suggestion], evidence: { line: link.line, target: link.target, suggestion: link.suggestion, text }, suggestion: 'relink', action: { type: 'relink', file: file.path, from: link.target, to: link.suggestion } }
          : { kind: 'dangling-link', paths: [file.path], evidence: { line: link.line, target: link.target, text }, suggestion: 'fix-index', action: { type: 'fix-index', file: file.path, remove: [], add: [], replace: [{ line: link.line, text, with: unlinked(text, link.target) }] } });
      }
    }
    return items;
  },
});

/** The line with its links to `target` turned into their plain text: the words stay, the dead link goes. */
export function unlinked(line: string, target: string): string {
  const esc = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return line
    .replace(new RegExp(`!?\\[([^\\]]*)\\]\\(<?${esc}(?:[#?][^)]*)?>?(?:\\s+"[^"]*")?\\)`, 'g'), '$1')
    .replace(new RegExp(`\\[\\[${esc}(?:#[^\\]|]*)?(?:\\|([^\\]]*))?\\]\\]`, 'g'), (_m, alias: string | undefined) => alias ?? target);
}
