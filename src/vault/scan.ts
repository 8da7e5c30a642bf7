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

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
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

interface Line {
  start: number;
  end: number;
  text: string;
  /** Index of the first character that is not a space or tab (text.length when blank). */
  first: number;
  /** Indentation width, tabs expanded to 4. */
  indent: number;
}

function measure(text: string): { first: number; indent: number } {
  let w = 0;
  let k = 0;
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 32) w++;
    else if (c === 9) w += 4 - (w % 4);
    else break;
  }
  return { first: k, indent: w };
}

function linesOf(text: string, from: number): Line[] {
  const out: Line[] = [];
  let start = from;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(start, end);
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = measure(t);
    out.push({ start, end, text: t, first: m.first, indent: m.indent });
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

export function scanMarkdown(text: string, from = 0): ScanResult {
  const links: ScannedLink[] = [];
  const code: [number, number][] = [];
  const lines = linesOf(text, from);
  let unitStart = -1;
  let unitEnd = -1;
  const flush = (): void => {
    if (unitStart !== -1) scanInline(text, unitStart, unitEnd, links, code, new Inline(text, unitStart, unitEnd));
    unitStart = -1;
  };
  let prevBlank = true;
  let inList = false;
  let listContent = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const t = line.text;
    if (line.first === t.length) {
      flush();
      prevBlank = true;
      i++;
      continue;
    }
    const indent = line.indent;
    const lead = t.charCodeAt(line.first);
    // Block constructs start with `, ~, <, >, a list marker or a digit; most lines start with none.
    const stripped = lead === 62 /* > */ ? t.replace(/^(?:[ \t]*>[ \t]?)+/, '') : t;
    const fenceLead = stripped.trimStart().charCodeAt(0);
    const fence = fenceLead === 96 || fenceLead === 126 ? FENCE_OPEN.exec(stripped) : null;
    const fenceIndentOk = fence && (indentWidth(fence[1]!) <= 3 || (inList && indentWidth(fence[1]!) < listContent + 4));
    if (fence && fenceIndentOk && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      flush();
      const marker = fence[2]!;
      const closeRe = new RegExp(`^[ \\t]*(?:>[ \\t]?)*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      let j = i + 1;
      while (j < lines.length && !closeRe.test(lines[j]!.text)) {
        if (inList && lines[j]!.first !== lines[j]!.text.length && lines[j]!.indent < listContent && indent >= listContent && indent > 3) break;
        j++;
      }
      const last = lines[Math.min(j, lines.length - 1)]!;
      code.push([line.start, j < lines.length ? last.end : text.length]);
      i = j + 1;
      prevBlank = false;
      continue;
    }
    if (lead === 60 /* < */ && indent <= 3) {
      if (t.startsWith('<!--', line.first)) {
        flush();
        let j = i;
        while (j < lines.length && !lines[j]!.text.includes('-->', j === i ? line.first + 4 : 0)) j++;
        code.push([line.start, lines[Math.min(j, lines.length - 1)]!.end]);
        i = j + 1;
        prevBlank = false;
        continue;
      }
      if (HTML_RAW_TAG.test(t)) {
        flush();
        const tag = HTML_RAW_TAG.exec(t)![1]!.toLowerCase();
        let j = i;
        while (j < lines.length && !lines[j]!.text.toLowerCase().includes(`</${tag}>`)) j++;
        code.push([line.start, lines[Math.min(j, lines.length - 1)]!.end]);
        i = j + 1;
        prevBlank = false;
        continue;
      }
      if (HTML_BLOCK_TAG.test(t)) {
        flush();
        let j = i;
        while (j < lines.length && lines[j]!.first !== lines[j]!.text.length) j++;
        code.push([line.start, lines[j - 1]!.end]);
        i = j;
        prevBlank = false;
        continue;
      }
    }
    const isMarker = lead === 45 || lead === 42 || lead === 43 || (lead >= 48 && lead <= 57);
    const item = isMarker ? LIST_ITEM.exec(t) : null;
    const codeIndent = inList ? listContent + 4 : 4;
    if (indent >= codeIndent && (prevBlank || unitStart === -1)) {
      flush();
      let j = i;
      let lastContent = i;
      while (j < lines.length) {
        const lj = lines[j]!;
        if (lj.first === lj.text.length) { j++; continue; }
        if (lj.indent < codeIndent) break;
        lastContent = j;
        j++;
      }
      code.push([line.start, lines[lastContent]!.end]);
      i = lastContent + 1;
      prevBlank = false;
      continue;
    }
    if (item) {
      flush();
      inList = true;
      listContent = indentWidth(item[1]!) + item[2]!.length + Math.max(1, Math.min(4, indentWidth(item[3]! || ' ')));
    } else if (prevBlank && indent < 2 && inList && indent < listContent) {
      inList = false;
    }
    const heading = lead === 35 /* # */ && indent <= 3 && /^ {0,3}#{1,6}(\s|$)/.test(t);
    if (heading) flush();
    if (unitStart === -1) {
      const def = lead === 91 /* [ */ && indent <= 3 ? DEFINITION.exec(text.slice(line.start, Math.min(text.length, line.start + 2000))) : null;
      if (def && !item && !heading) {
        const dest = def[2]!.startsWith('<') ? def[2]!.slice(1, -1) : def[2]!;
        links.push({ kind: 'definition', target: dest, offset: line.start + def[0].indexOf('['), length: def[0].length });
      }
      unitStart = line.start;
    }
    unitEnd = line.end;
    if (heading) flush();
    prevBlank = false;
    i++;
  }
  flush();
  return { links, codeRanges: code };
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
  private readonly found = new Map<string, { from: number; at: number }>();

  constructor(readonly text: string, readonly start: number, readonly end: number) {}

  /** text.indexOf(s, from), remembered: a later search from inside the last answer's span is free. */
  next(s: string, from: number): number {
    const last = this.found.get(s);
    if (last && last.from <= from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.text.indexOf(s, from);
    count('scan.searchSteps', (at === -1 ? this.text.length : at) - from);
    this.found.set(s, { from, at });
    return at;
  }

  /** Start of the first backtick run of exactly n at or after `from` and before `end`, or -1. */
  closingRun(from: number, end: number, n: number): number {
    if (!this.runs) {
      this.runs = new Map();
      for (let k = this.text.indexOf('`', this.start); k !== -1 && k < this.end;) {
        const len = runLength(this.text, k, '`');
        let list = this.runs.get(len);
        if (!list) { list = []; this.runs.set(len, list); }
        list.push(k);
        k = this.text.indexOf('`', k + len);
      }
    }
    const list = this.runs.get(n);
    if (!list) return -1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid]! < from) lo = mid + 1; else hi = mid; }
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
        if (c === 92 /* \ */) { k += 2; continue; }
        if (c === 96 /* ` */) {
          const n = runLength(t, k, '`');
          const close = this.closingRun(k + n, this.end, n);
          k = close === -1 ? k + n : close + n;
          continue;
        }
        if (c === 91 /* [ */) { stack.push(k); this.brackets.set(k, -1); }
        else if (c === 93 /* ] */) { const o = stack.pop(); if (o !== undefined) this.brackets.set(o, k); }
        k++;
      }
      count('scan.bracketSteps', this.end - this.start);
    }
    return this.brackets.get(open);
  }
}

const INTERESTING = /[\\`<[!]/g;

function scanInline(text: string, start: number, end: number, links: ScannedLink[], code: [number, number][], ctx: Inline): void {
  let i = start;
  while (i < end) {
    INTERESTING.lastIndex = i;
    const hit = INTERESTING.exec(text);
    if (!hit || hit.index >= end) return;
    count('scan.inlineSteps');
    i = hit.index;
    const ch = text[i];
    if (ch === '\\' && i + 1 < end && ASCII_PUNCT.test(text[i + 1]!)) { i += 2; continue; }
    if (ch === '`') {
      const n = runLength(text, i, '`');
      const close = ctx.closingRun(i + n, end, n);
      if (close === -1) { i += n; continue; }
      code.push([i, close + n]);
      const content = text.slice(i + n, close).replace(/\r?\n/g, ' ').trim();
      if (MENTION.test(content)) links.push({ kind: 'mention', target: content, offset: i, length: close + n - i });
      i = close + n;
      continue;
    }
    if (ch === '<') {
      if (text.startsWith('<!--', i)) {
        const close = ctx.next('-->', i + 4);
        if (close !== -1 && close < end) { code.push([i, close + 3]); i = close + 3; continue; }
      }
      const auto = /^<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/.exec(text.slice(i, Math.min(end, i + 2048)));
      if (auto) { i += auto[0].length; continue; }
      i++;
      continue;
    }
    if (ch === '[' && text[i + 1] === '[') {
      const close = ctx.next(']]', i + 2);
      const nl = ctx.next('\n', i);
      if (close !== -1 && close < end && (nl === -1 || close < nl)) {
        const inner = text.slice(i + 2, close);
        if (WIKILINK_INNER.test(inner)) {
          const target = inner.split('|')[0]!.split('#')[0]!.trim();
          if (target !== '') {
            links.push({ kind: 'wikilink', target, offset: i, length: close + 2 - i });
            i = close + 2;
            continue;
          }
        }
      }
    }
    if (ch === '[' || (ch === '!' && text[i + 1] === '[')) {
      const open = ch === '!' ? i + 1 : i;
      const parsed = parseInlineLink(text, open, end, ctx);
      if (parsed) {
        if (ch === '[') links.push({ kind: 'markdown', target: parsed.dest, offset: i, length: parsed.end - i });
        scanInline(text, open + 1, parsed.textEnd, links, code, ctx);
        i = parsed.end;
        continue;
      }
      i = open + 1;
      continue;
    }
    i++;
  }
}

/** `[text](dest "title")` starting at the `[`; returns where the text ends and the link ends. */
function parseInlineLink(text: string, open: number, end: number, ctx: Inline): { textEnd: number; end: number; dest: string } | null {
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
    if (c === '\\') { k += 2; continue; }
    if (c === '`') {
      const n = runLength(text, k, '`');
      const close = ctx.closingRun(k + n, end, n);
      k = close === -1 ? k + n : close + n;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) { textEnd = k; break; }
    }
    k++;
  }
  if (known === undefined) count('scan.linkSteps', k - open);
  if (textEnd === -1 || text[textEnd + 1] !== '(') return null;
  let p = textEnd + 2;
  while (p < end && (text[p] === ' ' || text[p] === '\t')) p++;
  if (text[p] === '\r') p++;
  if (text[p] === '\n') { p++; while (p < end && (text[p] === ' ' || text[p] === '\t')) p++; }
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
      if (c === '\\' && p + 1 < end && ASCII_PUNCT.test(text[p + 1]!)) { p += 2; continue; }
      if (c === '(') parens++;
      else if (c === ')') { if (parens === 0) break; parens--; }
      else if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c < ' ') break;
      p++;
    }
    if (p === stop && stop < end) { count('scan.linkSteps', p - s); return null; }
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
