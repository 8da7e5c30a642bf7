/** Items from the checker's vault-level view: index overflow, orphans, dangling index links. */
import { catalogLine } from '../../catalog/build.js';
import { notesUnderRules, reachability } from '../../rules/shared.js';
import { measureText } from '../../vault/index-file.js';
import type { VaultFile } from '../../vault/model.js';
import { defineStage, type ItemDraft } from '../stage.js';

const TYPE_PRIORITY: Record<string, number> = { feedback: 0, user: 1, project: 2, reference: 3 };

export const indexOverflow = defineStage({
  id: 'index-overflow',
  description: 'Which lowest-priority index lines move to the catalog so MEMORY.md fits its budget with headroom (rules kept first).',
  run({ vault }) {
    const info = vault.indexInfo;
    const index = vault.index;
    if (!info || !index) return [];
    const headroom = vault.config.index.headroom;
    const maxLines = Math.floor(info.maxLines * headroom);
    const maxBytes = Math.floor(info.maxBytes * headroom);
    if (info.lines <= maxLines && info.bytes <= maxBytes) return [];
    const catalogFile = vault.config.catalog.file;
    const linksCatalog = index.links.some((l) => l.resolved === catalogFile || (l.resolution === 'missing' && l.target === catalogFile));
    const add = linksCatalog ? [] : [`- [Catalog](${catalogFile}) — every note, by type`];
    // Lowest priority first: lines with no note, then reference, project, user; later lines before earlier.
    const priority = (target: string | null): number => {
      const note = target ? vault.byPath.get(target) : undefined;
      if (!note || note.role !== 'note') return target === catalogFile ? -1 : 5;
      return TYPE_PRIORITY[note.meta.type ?? ''] ?? 4;
    };
    const movable = info.entries
      .filter((e) => priority(e.target) >= 0 && !(e.target && (vault.byPath.get(e.target)?.meta.type === 'feedback')))
      .sort((a, b) => priority(b.target) - priority(a.target) || b.line - a.line);
    let lines = info.lines + add.length;
    let bytes = info.bytes + add.reduce((n, l) => n + measureText(`${l}\n`, info.measure), 0);
    const remove: { line: number; text: string }[] = [];
    for (const e of movable) {
      if (lines <= maxLines && bytes <= maxBytes) break;
      remove.push({ line: e.line, text: e.text });
      lines--;
      bytes -= measureText(`${e.text}\n`, info.measure);
    }
    if (lines > maxLines || bytes > maxBytes) {
      // Rules alone exceed the budget: move them too, latest first, and say so.
      for (const e of info.entries.filter((x) => !remove.some((r) => r.line === x.line)).sort((a, b) => b.line - a.line)) {
        if (lines <= maxLines && bytes <= maxBytes) break;
        remove.push({ line: e.line, text: e.text });
        lines--;
        bytes -= measureText(`${e.text}\n`, info.measure);
      }
    }
    remove.sort((a, b) => a.line - b.line);
    return [{
      kind: 'index-overflow',
      paths: [index.path],
      evidence: { lines: info.lines, bytes: info.bytes, maxLines: info.maxLines, maxBytes: info.maxBytes, headroom, linesAfter: lines, bytesAfter: bytes, moved: remove.length, lostEntries: info.lostEntries.length },
      suggestion: 'fix-index',
      action: { type: 'fix-index', file: index.path, remove, add },
      dependsOnManifest: true,
    }];
  },
});

export const orphans = defineStage({
  id: 'orphans',
  description: 'Notes no index reaches: add a line for them to the index (or retire them).',
  run({ vault }) {
    const { mentioned } = reachability(vault);
    const index = vault.config.index.file;
    const items: ItemDraft[] = [];
    for (const note of notesUnderRules(vault)) {
      if (mentioned.has(note.path)) continue;
      items.push({
        kind: 'orphan',
        paths: vault.index ? [note.path, index] : [note.path],
        evidence: { reachableFrom: [], indexFile: index },
        suggestion: 'relink',
        action: vault.index ? { type: 'fix-index', file: index, remove: [], add: [catalogLine(note as VaultFile)] } : { type: 'retire', retire: [note.path] },
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
          : { kind: 'dangling-link', paths: [file.path], evidence: { line: link.line, target: link.target, text }, suggestion: 'fix-index', action: { type: 'fix-index', file: file.path, remove: [{ line: link.line, text }], add: [] }, dependsOnManifest: true });
      }
    }
    return items;
  },
});
