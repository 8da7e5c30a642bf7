/** Items from the checker's vault-level view: orphans, dangling index links (index overflow: index-overflow.ts). */
import { catalogLine } from '../../catalog/build.js';
import { notesUnderRules, reachability } from '../../rules/shared.js';
import type { Vault, VaultFile } from '../../vault/model.js';
import { vaultFromText } from '../../vault/memory.js';
import { defineStage, type ItemDraft } from '../stage.js';

/** Notes no index reaches. */
export function orphanNotes(vault: Vault): VaultFile[] {
  const { mentioned } = reachability(vault);
  return notesUnderRules(vault).filter((n) => !mentioned.has(n.path));
}

const orphanCache = new WeakMap<Vault, { notes: VaultFile[]; left: number }>();

/**
 * Orphans that get a line in the index: as many as fit in its budget (with headroom), measured by
 * the index-budget code; the others are counted, not proposed (an index pushed over its budget
 * would lose lines the agent reads today).
 */
export function orphansWithRoom(vault: Vault): { notes: VaultFile[]; left: number } {
  let cached = orphanCache.get(vault);
  if (cached) return cached;
  const all = orphanNotes(vault);
  const index = vault.index;
  if (!index || all.length === 0) cached = { notes: index ? [] : all, left: 0 };
  else {
    const headroom = vault.config.index.headroom;
    const base = index.text.endsWith('\n') || index.text === '' ? index.text : `${index.text}\n`;
    const fits = (k: number): boolean => {
      const text = base + all.slice(0, k).map((n) => `${catalogLine(n)}\n`).join('');
      const info = vaultFromText(vault.root, vault.config, [{ path: index.path, text, role: 'index' }]).indexInfo!;
      return info.lines <= Math.floor(info.maxLines * headroom) && info.bytes <= Math.floor(info.maxBytes * headroom);
    };
    // The largest k that fits (binary search: the measure grows with k).
    let lo = 0;
    let hi = all.length;
    if (!fits(0)) hi = 0;
    while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (fits(mid)) lo = mid; else hi = mid - 1; }
    cached = { notes: all.slice(0, lo), left: all.length - lo };
  }
  orphanCache.set(vault, cached);
  return cached;
}

/** The index lines the orphans stage adds (none when there is no index). */
export function orphanLines(vault: Vault): string[] {
  return vault.index ? orphansWithRoom(vault).notes.map((n) => catalogLine(n)) : [];
}

export const orphans = defineStage({
  id: 'orphans',
  description: 'Notes no index reaches: add a line for them to the index while it has room in its budget (or retire them).',
  run({ vault, summary }) {
    const index = vault.config.index.file;
    const items: ItemDraft[] = [];
    const { notes, left } = vault.index ? orphansWithRoom(vault) : { notes: orphanNotes(vault), left: 0 };
    if (left > 0) summary.orphansWithoutRoom = { count: left, reason: `${index} has no room left in its budget for more lines; these orphans are not proposed` };
    for (const note of notes) {
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
