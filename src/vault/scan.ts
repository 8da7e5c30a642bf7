/**
 * A fast reading of the parts of markdown that memlint needs: links, wikilinks, backticked file
 * mentions, and the code that must be skipped when looking for them. A full remark parse costs
 * ~30x reading the file; test/scan-differential.test.ts proves this scanner reads links and code the
 * way remark-parse does on every corpus note and on generated edge cases.
 */

export type LinkKind = 'markdown' | 'definition' | 'wikilink' | 'mention';

export interface ScannedLink {
  readonly kind: LinkKind;
  /** Destination as written (markdown), the name part of a wikilink, or the mentioned file name. */
  readonly target: string;
  /** Offset of the first character of the construct in the file text. */
  readonly offset: number;
  readonly length: number;
  /** Known only when the scan comes from `check --cache`; else computed from the offset. */
  readonly line?: number;
  readonly column?: number;
}

export interface ScanResult {
  readonly links: readonly ScannedLink[];
  /** [start, end) offsets of code blocks, code spans and HTML comments / blocks. */
  readonly codeRanges: readonly (readonly [number, number])[];
}

import { count } from '../util/counters.js';
import { computeLineStarts, lineIndexAt } from './decode.js';

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const HTML_BLOCK_TAG =
  /^ {0,3}<\/?(address|article|aside|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|nav|ol|p|param|section|summary|table|tbody|td|tfoot|th|thead|title|tr|ul)(?:\s|\/?>|$)/i;
const HTML_RAW_TAG = /^ {0,3}<(script|pre|style|textarea)(?:\s|>|$)/i;
const DEFINITION = /^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*(?:\r?\n[ \t]*)?(<[^>\n]*>|[^\s<][^\s]*)/;
/** `[[name]]`, `[[name|alias]]`, `[[name#heading]]` — not bash's `[[ -f x ]]` or `[["k"]]`. */
const WIKILINK_INNER = /^[^\s"'`:[\]|#$-][^[\]\n]*$/;
const MENTION = /^[^\s`]+\.md$/i;
const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
/** The longest link destination or title read (characters). */
const MAX_DEST = 2048;

function indentWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch === '\t' ? 4 - (w % 4) : 1;
  return w;
}

/**
 * The lines of a scan are read in place: `starts` holds every line's start offset in `text` (`computeLineStarts`,
 * made once per file and kept for positions), and a line's first character, indent and content are read from
 * the text when a construct asks (no object or slice per line: at hard 10k, 535k lines).
 */
interface Lines {
  readonly text: string;
  readonly starts: readonly number[];
  /** starts[base] is the scan's first line. */
  readonly base: number;
  /** How many lines the scan reads (a last empty line after a final "\n" is none). */
  readonly n: number;
}

const startOf = (s: Lines, i: number): number => s.starts[s.base + i]!;
/** Offset of the line's "\n" (or the end of the text). */
const endOf = (s: Lines, i: number): number => {
  const k = s.base + i + 1;
  return k < s.starts.length ? s.starts[k]! - 1 : s.text.length;
};
/** Where the line's content ends: before a "\r" ending it. */
const contentEndOf = (s: Lines, i: number): number => {
  const end = endOf(s, i);
  return end > startOf(s, i) && s.text.charCodeAt(end - 1) === 13 ? end - 1 : end;
};
/** Offset of the line's first character that is not a space or tab (its content end when blank). */
function firstOf(s: Lines, i: number): number {
  const { text } = s;
  const end = contentEndOf(s, i);
  let k = startOf(s, i);
  while (k < end) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9) break;
    k++;
  }
  return k;
}
const isBlank = (s: Lines, i: number): boolean => firstOf(s, i) === contentEndOf(s, i);
/** Indentation width, tabs expanded to 4. */
function indentOf(s: Lines, i: number): number {
  const { text } = s;
  const end = contentEndOf(s, i);
  let w = 0;
  for (let k = startOf(s, i); k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 32) w++;
    else if (c === 9) w += 4 - (w % 4);
    else break;
  }
  return w;
}
/** The line's content ("\r" of a "\r\n" dropped), sliced for the few constructs read by a regex. */
const lineText = (s: Lines, i: number): string => s.text.slice(startOf(s, i), contentEndOf(s, i));
/** The char code of a line's first character after its indent (-1 when blank): block constructs start with `, ~, <, >, #, [, a list marker or a digit. */
const leadOf = (s: Lines, i: number): number => {
  const f = firstOf(s, i);
  return f === contentEndOf(s, i) ? -1 : s.text.charCodeAt(f);
};

/** The scan's lines from `from` on, given the text's line starts (or made here). */
function linesOf(text: string, from: number, given?: readonly number[]): Lines {
  let starts = given ?? computeLineStarts(text);
  let base = lineIndexAt(starts, from);
  // `from` inside a line (never for a file's body offset): its rest is the scan's first line.
  if (starts[base] !== from) {
    starts = [from, ...starts.slice(base + 1)];
    base = 0;
  }
  let n = starts.length - base;
  if (n > 0 && starts[starts.length - 1]! >= text.length) n--;
  return { text, starts, base, n };
}

/** One scan of a text: what it found so far, and the inline unit (a paragraph, a heading) being gathered. */
interface Scan extends Lines {
  readonly links: ScannedLink[];
  readonly code: [number, number][];
  /** The gathered unit's first line start and last line end; -1: none open. */
  unitStart: number;
  unitEnd: number;
  prevBlank: boolean;
  inList: boolean;
  /** Where a list item's content starts (its marker's width and spacing): deeper lines belong to it. */
  listContent: number;
}

/**
 * The links and code of `text` from `from` (a line start) on. `lineStarts`: the text's line starts
 * (`computeLineStarts`), when the caller has them; made here otherwise.
 */
export function scanMarkdown(text: string, from = 0, lineStarts?: readonly number[]): ScanResult {
  const lines = linesOf(text, from, lineStarts);
  const s: Scan = {
    text,
    starts: lines.starts,
    base: lines.base,
    n: lines.n,
    links: [],
    code: [],
    unitStart: -1,
    unitEnd: -1,
    prevBlank: true,
    inList: false,
    listContent: 0,
  };
  const { n, starts, base } = s;
  const last = text.length;
  let i = 0;
  while (i < n) {
    // The line read in place (as `firstOf`, `indentOf`, `contentEndOf` read it): most lines are read only here.
    const start = starts[base + i]!;
    const end = base + i + 1 < starts.length ? starts[base + i + 1]! - 1 : last;
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    let first = start;
    let indent = 0;
    for (; first < contentEnd; first++) {
      const c = text.charCodeAt(first);
      if (c === 32) indent++;
      else if (c === 9) indent += 4 - (indent % 4);
      else break;
    }
    if (first === contentEnd) {
      i = blankLine(s, i);
      continue;
    }
    // The code blocks in this order, each tried only on a line whose first character or indent may open it
    // (most lines open none); a line none of them takes joins a unit.
    const lead = text.charCodeAt(first);
    let next = -1;
    if (lead === 96 /* ` */ || lead === 126 /* ~ */ || lead === 62 /* > */) next = fencedCode(s, i);
    if (next === -1 && lead === 60 /* < */) {
      next = htmlComment(s, i);
      if (next === -1) next = rawHtml(s, i);
      if (next === -1) next = htmlBlock(s, i);
    }
    if (next === -1 && indent >= 4) next = indentedCode(s, i);
    i = next === -1 ? unitLine(s, i, lead, indent, first) : next;
  }
  endUnit(s);
  return { links: s.links, codeRanges: s.code };
}

// Each block construct below takes (scan, line index) and returns the index of the first line after it, or -1
// when the line does not start one. A code block closes the unit before it and records its range (`codeBlock`).

/** Scans the gathered unit's inline content (links, code spans, comments) and closes it. */
function endUnit(s: Scan): void {
  if (s.unitStart !== -1)
    scanInline(s.text, s.unitStart, s.unitEnd, s.links, s.code, new Inline(s.text, s.unitStart, s.unitEnd));
  s.unitStart = -1;
}

/** Records a code block [start, end) after closing the unit before it; `next` is the line after the block. */
function codeBlock(s: Scan, start: number, end: number, next: number): number {
  endUnit(s);
  s.code.push([start, end]);
  s.prevBlank = false;
  return next;
}

function blankLine(s: Scan, i: number): number {
  endUnit(s);
  s.prevBlank = true;
  return i + 1;
}

/** ``` or ~~~ (inside block quotes too), to its closing fence or the end of the text, or of the list item it is in. */
function fencedCode(s: Scan, i: number): number {
  const lead = leadOf(s, i);
  // Spaces or tabs, then ` or ~ (FENCE_OPEN), after any block quote markers: most lines start with none.
  if (lead !== 96 && lead !== 126 && lead !== 62) return -1;
  const { n, inList, listContent, text } = s;
  const t = lineText(s, i);
  const stripped = lead === 62 /* > */ ? t.replace(/^(?:[ \t]*>[ \t]?)+/, '') : t;
  const fenceLead = stripped.trimStart().charCodeAt(0);
  const fence = fenceLead === 96 || fenceLead === 126 ? FENCE_OPEN.exec(stripped) : null;
  if (!fence) return -1;
  const fenceIndentOk = indentWidth(fence[1]!) <= 3 || (inList && indentWidth(fence[1]!) < listContent + 4);
  if (!fenceIndentOk || (fence[2]![0] === '`' && fence[3]!.includes('`'))) return -1;
  const marker = fence[2]!;
  const closeRe = new RegExp(`^[ \\t]*(?:>[ \\t]?)*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  const indent = indentOf(s, i);
  let j = i + 1;
  while (j < n) {
    // A closing fence's first character after its indent is `>` or the fence's: only such a line is matched.
    const c = leadOf(s, j);
    if ((c === 62 || c === 96 || c === 126) && closeRe.test(lineText(s, j))) break;
    if (inList && c !== -1 && indentOf(s, j) < listContent && indent >= listContent && indent > 3) break;
    j++;
  }
  return codeBlock(s, startOf(s, i), j < n ? endOf(s, j) : text.length, j + 1);
}

/** Whether line i may start an HTML block: `<` indented at most 3. */
function htmlStart(s: Scan, i: number): boolean {
  return leadOf(s, i) === 60 /* < */ && indentOf(s, i) <= 3;
}

/** `<!--` to the line holding `-->` (or the end of the text). */
function htmlComment(s: Scan, i: number): number {
  const { n, text } = s;
  if (!htmlStart(s, i)) return -1;
  const first = firstOf(s, i);
  if (!text.startsWith('<!--', first)) return -1;
  // `-->` holds no line break: the line holding the first one after the opener is the comment's last.
  const close = text.indexOf('-->', first + 4);
  let j = i;
  if (close === -1) j = n;
  else while (j < n && endOf(s, j) < close) j++;
  return codeBlock(s, startOf(s, i), endOf(s, Math.min(j, n - 1)), j + 1);
}

/** `<script>`, `<pre>`, `<style>`, `<textarea>` to the line that closes the tag (or the end of the text). */
function rawHtml(s: Scan, i: number): number {
  const { n } = s;
  if (!htmlStart(s, i)) return -1;
  const open = HTML_RAW_TAG.exec(lineText(s, i));
  if (!open) return -1;
  const tag = open[1]!.toLowerCase();
  let j = i;
  while (j < n && !lineText(s, j).toLowerCase().includes(`</${tag}>`)) j++;
  return codeBlock(s, startOf(s, i), endOf(s, Math.min(j, n - 1)), j + 1);
}

/** A block-level HTML tag (`<div>`, `<table>`…) to the next blank line. */
function htmlBlock(s: Scan, i: number): number {
  const { n } = s;
  if (!htmlStart(s, i) || !HTML_BLOCK_TAG.test(lineText(s, i))) return -1;
  let j = i;
  while (j < n && !isBlank(s, j)) j++;
  return codeBlock(s, startOf(s, i), endOf(s, j - 1), j);
}

/** Lines indented 4 past the list content (or 4) after a blank line or outside a unit, to the last such line. */
function indentedCode(s: Scan, i: number): number {
  const { n } = s;
  const codeIndent = s.inList ? s.listContent + 4 : 4;
  if (indentOf(s, i) < codeIndent || !(s.prevBlank || s.unitStart === -1)) return -1;
  let j = i;
  let lastContent = i;
  while (j < n) {
    if (isBlank(s, j)) {
      j++;
      continue;
    }
    if (indentOf(s, j) < codeIndent) break;
    lastContent = j;
    j++;
  }
  return codeBlock(s, startOf(s, i), endOf(s, lastContent), lastContent + 1);
}

/**
 * A list item's marker on line i whose first non-blank character is at `first` (`/^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/`,
 * read in place):
 * the width its content starts at, or -1 when the line is no list item.
 */
function listItem(s: Scan, i: number, first: number, indent: number): number {
  const { text } = s;
  const end = contentEndOf(s, i);
  let k = first;
  const c = text.charCodeAt(k);
  if (c === 45 || c === 42 || c === 43) k++;
  else {
    while (k < end && k - first < 9 && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
    const d = text.charCodeAt(k);
    if (k === first || k >= end || (d !== 46 && d !== 41)) return -1;
    k++;
  }
  const markerWidth = k - first;
  // Spaces or tabs after the marker (their width as if from column 0), or the end.
  let w = 0;
  let any = false;
  for (; k < end; k++) {
    const d = text.charCodeAt(k);
    if (d === 32) w++;
    else if (d === 9) w += 4 - (w % 4);
    else break;
    any = true;
  }
  if (!any && k < end) return -1;
  return indent + markerWidth + Math.max(1, Math.min(4, any ? w : 1));
}

/**
 * A line of an inline unit: a list item starts a unit (and sets the list's content column), a heading is a unit
 * of its own, a link reference definition at a unit's start is a link; the rest joins the unit.
 */
function unitLine(s: Scan, i: number, lead: number, indent: number, first: number): number {
  const { text } = s;
  const start = startOf(s, i);
  const isMarker = lead === 45 || lead === 42 || lead === 43 || (lead >= 48 && lead <= 57);
  const itemContent = isMarker ? listItem(s, i, first, indent) : -1;
  const item = itemContent !== -1;
  if (item) {
    endUnit(s);
    s.inList = true;
    s.listContent = itemContent;
  } else if (s.prevBlank && indent < 2 && s.inList && indent < s.listContent) {
    s.inList = false;
  }
  const heading = lead === 35 /* # */ && indent <= 3 && /^ {0,3}#{1,6}(\s|$)/.test(lineText(s, i));
  if (heading) endUnit(s);
  if (s.unitStart === -1) {
    const def =
      lead === 91 /* [ */ && indent <= 3
        ? DEFINITION.exec(text.slice(start, Math.min(text.length, start + 2000)))
        : null;
    if (def && !item && !heading) {
      const dest = def[2]!.startsWith('<') ? def[2]!.slice(1, -1) : def[2]!;
      s.links.push({
        kind: 'definition',
        target: dest,
        offset: start + def[0].indexOf('['),
        length: def[0].length,
      });
    }
    s.unitStart = start;
  }
  s.unitEnd = endOf(s, i);
  if (heading) endUnit(s);
  s.prevBlank = false;
  return i + 1;
}

/** Length of the backtick run at i. */
function runLength(text: string, i: number, ch: string): number {
  let n = 0;
  while (text[i + n] === ch) n++;
  return n;
}

/**
 * What one inline unit (a paragraph, a heading) is scanned with, built at most once per unit so the
 * scan stays linear on any input (issue 16: 80,000 `[` took 47 s): where each backtick run of each
 * length is, which `]` closes each `[`, and the next occurrence of a string, remembered.
 */
class Inline {
  private runs: Map<number, number[]> | null = null;
  private brackets: Map<number, number> | null = null;
  private found: Map<string, { from: number; at: number }> | null = null;

  constructor(
    readonly text: string,
    readonly start: number,
    readonly end: number,
  ) {}

  /** text.indexOf(s, from), remembered: a later search from inside the last answer's span is free. */
  next(s: string, from: number): number {
    const found = (this.found ??= new Map());
    const last = found.get(s);
    if (last && last.from <= from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.text.indexOf(s, from);
    count('scan.searchSteps', (at === -1 ? this.text.length : at) - from);
    found.set(s, { from, at });
    return at;
  }

  /** Start of the first backtick run of exactly n at or after `from` and before `end`, or -1. */
  closingRun(from: number, end: number, n: number): number {
    if (!this.runs) {
      this.runs = new Map();
      for (let k = this.text.indexOf('`', this.start); k !== -1 && k < this.end;) {
        const len = runLength(this.text, k, '`');
        let list = this.runs.get(len);
        if (!list) {
          list = [];
          this.runs.set(len, list);
        }
        list.push(k);
        k = this.text.indexOf('`', k + len);
      }
    }
    const list = this.runs.get(n);
    if (!list) return -1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length && list[lo]! < end ? list[lo]! : -1;
  }

  /**
   * The `]` that closes the `[` at `open` (as parseInlineLink counts: escapes and code spans skipped),
   * -1 when none does, or undefined when `open` is not a bracket this pass reached (then counted directly).
   */
  closer(open: number): number | undefined {
    if (!this.brackets) {
      this.brackets = new Map();
      const stack: number[] = [];
      const t = this.text;
      let k = this.start;
      while (k < this.end) {
        const c = t.charCodeAt(k);
        if (c === 92 /* \ */) {
          k += 2;
          continue;
        }
        if (c === 96 /* ` */) {
          const n = runLength(t, k, '`');
          const close = this.closingRun(k + n, this.end, n);
          k = close === -1 ? k + n : close + n;
          continue;
        }
        if (c === 91 /* [ */) {
          stack.push(k);
          this.brackets.set(k, -1);
        } else if (c === 93 /* ] */) {
          const o = stack.pop();
          if (o !== undefined) this.brackets.set(o, k);
        }
        k++;
      }
      count('scan.bracketSteps', this.end - this.start);
    }
    return this.brackets.get(open);
  }
}

const INTERESTING = /[\\`<[!]/g;
const AUTOLINK = /^<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/;

/**
 * The inline constructs of text[start, end): the loop finds the next character that may open one and hands it
 * to that construct's function, which returns where scanning goes on.
 */
function scanInline(
  text: string,
  start: number,
  end: number,
  links: ScannedLink[],
  code: [number, number][],
  ctx: Inline,
): void {
  // Searched within the unit alone (a slice shares the text's characters): searched in the whole text,
  // the last search of every unit ran on to the next such character of the file (at hard 10k, 71 M
  // characters past the units' ends, for 48 M within them).
  const unit = start === 0 && end === text.length ? text : text.slice(start, end);
  let i = start;
  while (i < end) {
    INTERESTING.lastIndex = i - start;
    const hit = INTERESTING.exec(unit);
    count('scan.inlineChars', (hit ? hit.index : unit.length) - (i - start));
    if (!hit) return;
    count('scan.inlineSteps');
    i = hit.index + start;
    const ch = text[i];
    if (ch === '\\') i = i + 1 < end && ASCII_PUNCT.test(text[i + 1]!) ? i + 2 : i + 1;
    else if (ch === '`') i = codeSpan(text, i, end, links, code, ctx);
    else if (ch === '<') i = inlineHtml(text, i, end, code, ctx);
    else if (ch === '[') {
      const after = text[i + 1] === '[' ? wikilink(text, i, end, links, ctx) : -1;
      i = after !== -1 ? after : inlineLink(text, i, i, end, links, code, ctx);
    } else if (text[i + 1] === '[')
      i = inlineLink(text, i, i + 1, end, links, code, ctx); // ![image](…)
    else i++;
  }
}

/** A code span (a backtick run to the next run of the same length), and a `file.md` it names; unclosed, the run is text. */
function codeSpan(
  text: string,
  i: number,
  end: number,
  links: ScannedLink[],
  code: [number, number][],
  ctx: Inline,
): number {
  const n = runLength(text, i, '`');
  const close = ctx.closingRun(i + n, end, n);
  if (close === -1) return i + n;
  code.push([i, close + n]);
  // A mention ends in `.md` (before white space): a span whose last character is none of d, D, white space or
  // another non-ASCII character (U+3000…) names no file, and is not sliced.
  const last = text.charCodeAt(close - 1);
  if (last !== 100 && last !== 68 && last > 32 && last < 128) return close + n;
  const content = text
    .slice(i + n, close)
    .replace(/\r?\n/g, ' ')
    .trim();
  if (MENTION.test(content)) links.push({ kind: 'mention', target: content, offset: i, length: close + n - i });
  return close + n;
}

/** An HTML comment inside the unit (code), or an autolink `<scheme:…>` (skipped whole). */
function inlineHtml(text: string, i: number, end: number, code: [number, number][], ctx: Inline): number {
  if (text.startsWith('<!--', i)) {
    const close = ctx.next('-->', i + 4);
    if (close !== -1 && close < end) {
      code.push([i, close + 3]);
      return close + 3;
    }
  }
  const auto = AUTOLINK.exec(text.slice(i, Math.min(end, i + 2048)));
  return auto ? i + auto[0].length : i + 1;
}

/** `[[name]]` on one line: the position after it, or -1 when it is not a wikilink (then `[` may open a link). */
function wikilink(text: string, i: number, end: number, links: ScannedLink[], ctx: Inline): number {
  const close = ctx.next(']]', i + 2);
  const nl = ctx.next('\n', i);
  if (close === -1 || close >= end || (nl !== -1 && nl < close)) return -1;
  const inner = text.slice(i + 2, close);
  if (!WIKILINK_INNER.test(inner)) return -1;
  // The name: before the first `|` and the first `#`.
  const bar = inner.indexOf('|');
  const hash = inner.indexOf('#');
  const cut = bar === -1 ? hash : hash === -1 ? bar : Math.min(bar, hash);
  const target = (cut === -1 ? inner : inner.slice(0, cut)).trim();
  if (target === '') return -1;
  links.push({ kind: 'wikilink', target, offset: i, length: close + 2 - i });
  return close + 2;
}

/** `[text](dest)` (a link) or `![alt](src)` (an image: its text is scanned, it is not a link) with its `[` at `open`. */
function inlineLink(
  text: string,
  i: number,
  open: number,
  end: number,
  links: ScannedLink[],
  code: [number, number][],
  ctx: Inline,
): number {
  const parsed = parseInlineLink(text, open, end, ctx);
  if (!parsed) return open + 1;
  if (open === i) links.push({ kind: 'markdown', target: parsed.dest, offset: i, length: parsed.end - i });
  scanInline(text, open + 1, parsed.textEnd, links, code, ctx);
  return parsed.end;
}

/** `[text](dest "title")` starting at the `[`; returns where the text ends and the link ends. */
function parseInlineLink(
  text: string,
  open: number,
  end: number,
  ctx: Inline,
): { textEnd: number; end: number; dest: string } | null {
  let depth = 0;
  let k = open;
  let textEnd = -1;
  const known = ctx.closer(open);
  if (known !== undefined) {
    textEnd = known < end ? known : -1;
    k = end;
  }
  while (k < end) {
    const c = text[k];
    if (c === '\\') {
      k += 2;
      continue;
    }
    if (c === '`') {
      const n = runLength(text, k, '`');
      const close = ctx.closingRun(k + n, end, n);
      k = close === -1 ? k + n : close + n;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) {
        textEnd = k;
        break;
      }
    }
    k++;
  }
  if (known === undefined) count('scan.linkSteps', k - open);
  if (textEnd === -1 || text[textEnd + 1] !== '(') return null;
  let p = textEnd + 2;
  while (p < end && (text[p] === ' ' || text[p] === '\t')) p++;
  if (text[p] === '\r') p++;
  if (text[p] === '\n') {
    p++;
    while (p < end && (text[p] === ' ' || text[p] === '\t')) p++;
  }
  let dest: string;
  if (text[p] === '<') {
    const close = ctx.next('>', p + 1);
    const nl = ctx.next('\n', p + 1);
    if (close === -1 || close >= end || (nl !== -1 && nl < close)) return null;
    dest = text.slice(p + 1, close);
    p = close + 1;
  } else {
    let parens = 0;
    const s = p;
    // A destination is at most MAX_DEST characters (a browser's URL limit): without a bound, `[a](b`
    // repeated rescanned the rest of the unit from every `[` (quadratic, issue 16).
    const stop = Math.min(end, p + MAX_DEST);
    while (p < stop) {
      const c = text[p]!;
      if (c === '\\' && p + 1 < end && ASCII_PUNCT.test(text[p + 1]!)) {
        p += 2;
        continue;
      }
      if (c === '(') parens++;
      else if (c === ')') {
        if (parens === 0) break;
        parens--;
      } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c < ' ') break;
      p++;
    }
    if (p === stop && stop < end) {
      count('scan.linkSteps', p - s);
      return null;
    }
    count('scan.linkSteps', p - s);
    dest = text.slice(s, p).replace(/\\([!-/:-@[-`{-~])/g, '$1');
  }
  while (p < end && /[ \t\r\n]/.test(text[p]!)) p++;
  if (text[p] === '"' || text[p] === "'" || text[p] === '(') {
    const closer = text[p] === '(' ? ')' : text[p]!;
    let q = p + 1;
    // A title is bounded too: `[a](b (` repeated would rescan the unit from every `[`.
    const stopTitle = Math.min(end, q + MAX_DEST);
    while (q < stopTitle && text[q] !== closer) q += text[q] === '\\' ? 2 : 1;
    count('scan.linkSteps', q - p);
    if (q >= stopTitle) return null;
    p = q + 1;
    while (p < end && /[ \t\r\n]/.test(text[p]!)) p++;
  }
  if (text[p] !== ')') return null;
  return { textEnd, end: p + 1, dest };
}
