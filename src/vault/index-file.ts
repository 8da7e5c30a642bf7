/**
 * MEMORY.md as the harness reads it. Claude Code's `truncateEntrypointContent` (src/memdir/memdir.ts):
 * `raw.trim()`, split on "\n"; more than 200 lines → the first 200; then, if the kept text is longer
 * than 25,000 (`.length`: UTF-16 code units), cut at `lastIndexOf('\n', 25000)` (at 25,000 itself when
 * that finds no newline past the start). `measure: 'utf8'` runs the same cut in UTF-8 bytes for
 * harnesses that count bytes.
 */
import type { IndexEntry, IndexInfo, Link, VaultFile } from './model.js';

const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const encoder = new TextEncoder();

export type IndexMeasure = 'utf16' | 'utf8';
export interface Budget {
  maxLines: number;
  maxBytes: number;
  measure?: IndexMeasure;
}

/** What the harness keeps of an index text. Offsets are into the text given. */
export interface HarnessCut {
  /** Offset where the trimmed text starts, and where it ends. */
  readonly start: number;
  readonly end: number;
  /** Offset where the loaded text ends (`end` when nothing is cut). */
  readonly loadedEnd: number;
  /** Lines of the trimmed text (the harness's `lineCount`) and its size in the measure. */
  readonly lines: number;
  readonly size: number;
  /** Lines of the trimmed text loaded whole, and the loaded size in the measure. */
  readonly loadedLines: number;
  readonly loadedSize: number;
  readonly truncated: boolean;
}

/** JavaScript `String.prototype.trim`'s white space (WhiteSpace + LineTerminator, BOM included). */
const JS_SPACE = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$/;

/** Size of a text in the measure. */
export function measureText(text: string, measure: IndexMeasure = 'utf16'): number {
  return measure === 'utf16' ? text.length : encoder.encode(text).length;
}

/** The longest prefix of `text` (in UTF-16 units) whose size in the measure is at most `units`. */
function prefixWithin(text: string, units: number, measure: IndexMeasure): number {
  if (measure === 'utf16') return Math.min(units, text.length);
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.codePointAt(i)!;
    const b = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (bytes + b > units) break;
    bytes += b;
    i += c > 0xffff ? 2 : 1;
  }
  return i;
}

/** `truncateEntrypointContent`, as offsets into `text`: which part the harness loads. */
export function harnessCut(text: string, budget: Budget): HarnessCut {
  const measure = budget.measure ?? 'utf16';
  let start = 0;
  let end = text.length;
  while (start < end && JS_SPACE.test(text[start]!)) start++;
  while (end > start && JS_SPACE.test(text[end - 1]!)) end--;
  const trimmed = text.slice(start, end);
  // Newline positions of the trimmed text: lines = newlines + 1 (an empty text is one empty line).
  const newlines: number[] = [];
  for (let i = trimmed.indexOf('\n'); i !== -1; i = trimmed.indexOf('\n', i + 1)) newlines.push(i);
  const lines = newlines.length + 1;
  const size = measureText(trimmed, measure);
  const wasLineTruncated = lines > budget.maxLines;
  const wasByteTruncated = size > budget.maxBytes;
  if (!wasLineTruncated && !wasByteTruncated) {
    return { start, end, loadedEnd: end, lines, size, loadedLines: lines, loadedSize: size, truncated: false };
  }
  // contentLines.slice(0, maxLines).join('\n'): everything before the maxLines-th newline.
  let kept = wasLineTruncated ? newlines[budget.maxLines - 1]! : trimmed.length;
  if (measureText(trimmed.slice(0, kept), measure) > budget.maxBytes) {
    const limit = prefixWithin(trimmed, budget.maxBytes, measure);
    const cutAt = trimmed.lastIndexOf('\n', limit);
    kept = cutAt > 0 ? cutAt : limit;
  }
  // Whole lines loaded: those whose newline (or the text's end) is at or before the cut.
  let loadedLines = 0;
  while (loadedLines < newlines.length && newlines[loadedLines]! <= kept) loadedLines++;
  if (kept >= trimmed.length) loadedLines = lines;
  return {
    start,
    end,
    loadedEnd: start + kept,
    lines,
    size,
    loadedLines,
    loadedSize: measureText(trimmed.slice(0, kept), measure),
    truncated: true,
  };
}

/** What readIndex reads of the index file: its text and its links' lines and resolutions (a VaultFile has them; guard passes a lighter view). */
export type IndexText = Pick<VaultFile, 'path' | 'text'> & {
  readonly links: readonly Pick<Link, 'kind' | 'target' | 'line' | 'resolved' | 'resolution'>[];
};

export function readIndex(file: IndexText, budget: Budget): IndexInfo {
  const text = file.text;
  const rawLines = text === '' ? [] : text.split('\n');
  if (rawLines.length > 0 && rawLines[rawLines.length - 1] === '') rawLines.pop();
  // The BOM is white space to trim(): cutting the text without it cuts the same trimmed text.
  const cut = harnessCut(text, budget);
  // File line (1-based) where the trimmed text starts: harness line n is file line n + skipped.
  let skipped = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < cut.start; i = text.indexOf('\n', i + 1)) skipped++;
  const lastLoaded = cut.truncated ? skipped + cut.loadedLines : rawLines.length;
  const linksByLine = new Map<number, IndexText['links'][number][]>();
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
    lines: cut.lines,
    bytes: cut.size,
    maxLines: budget.maxLines,
    maxBytes: budget.maxBytes,
    measure: budget.measure ?? 'utf16',
    loadedLines: cut.loadedLines,
    truncated: cut.truncated,
    cutLine: cut.truncated ? lastLoaded + 1 : null,
    entries,
    lostEntries: cut.truncated ? entries.filter((e) => e.line > lastLoaded) : [],
  };
}
