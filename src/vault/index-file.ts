/** MEMORY.md as the harness reads it: the first 200 lines or 25,000 bytes, cut at a newline. */
import type { IndexEntry, IndexInfo, VaultFile } from './model.js';

const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const encoder = new TextEncoder();

export interface Budget { maxLines: number; maxBytes: number }

/**
 * Lines the harness loads: at most `maxLines`, and only whole lines whose bytes (BOM included) end
 * at or below `maxBytes` — it cuts at the last newline at or below the byte limit.
 */
export function loadedLineCount(lineByteEnds: readonly number[], totalBytes: number, budget: Budget): number {
  if (lineByteEnds.length <= budget.maxLines && totalBytes <= budget.maxBytes) return lineByteEnds.length;
  let n = 0;
  while (n < lineByteEnds.length && n < budget.maxLines && lineByteEnds[n]! <= budget.maxBytes) n++;
  return n;
}

export function readIndex(file: VaultFile, budget: Budget): IndexInfo {
  const text = file.text;
  const rawLines = text === '' ? [] : text.split('\n');
  if (rawLines.length > 0 && rawLines[rawLines.length - 1] === '') rawLines.pop();
  const ends: number[] = [];
  let bytes = file.bom ? 3 : 0;
  for (let i = 0; i < rawLines.length; i++) {
    const hasNewline = i < rawLines.length - 1 || text.endsWith('\n');
    bytes += encoder.encode(rawLines[i]!).length + (hasNewline ? 1 : 0);
    ends.push(bytes);
  }
  const totalBytes = file.size;
  const loaded = loadedLineCount(ends, totalBytes, budget);
  const linksByLine = new Map<number, VaultFile['links'][number][]>();
  for (const l of file.links) {
    if (l.kind === 'mention') continue;
    const list = linksByLine.get(l.line) ?? [];
    list.push(l);
    linksByLine.set(l.line, list);
  }
  const entries: IndexEntry[] = [];
  rawLines.forEach((raw, i) => {
    const line = i + 1;
    const links = linksByLine.get(line) ?? [];
    const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!LIST_ITEM.test(lineText) && links.length === 0) return;
    const toNote = links.find((l) => l.resolved !== null && l.resolved.toLowerCase().endsWith('.md'));
    const local = links.find((l) => l.resolution === 'missing');
    entries.push({ line, text: lineText, target: toNote?.resolved ?? local?.target ?? null });
  });
  return {
    file: file.path,
    lines: rawLines.length,
    bytes: totalBytes,
    maxLines: budget.maxLines,
    maxBytes: budget.maxBytes,
    loadedLines: loaded,
    entries,
    lostEntries: entries.filter((e) => e.line > loaded),
  };
}
