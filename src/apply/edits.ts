/** Text transformations that apply plans: front matter stays byte-identical, links are retargeted. */
import { posix } from 'node:path';
import type { VaultFile } from '../vault/model.js';

/** The file with its body replaced; the front matter (and BOM) kept exactly as written. */
export function replaceBody(file: VaultFile, body: string): string {
  const head = file.text.slice(0, file.bodyOffset);
  const eol = file.crlf ? '\r\n' : '\n';
  const normalized = body.replace(/\r?\n/g, eol);
  return `${file.bom ? '\uFEFF' : ''}${head}${normalized.endsWith(eol) ? normalized : normalized + eol}`;
}

const stem = (p: string): string => p.slice(p.lastIndexOf('/') + 1).replace(/\.md$/i, '');

/** Relative link from one file to another, both vault-relative. */
export function relativeLink(fromFile: string, toFile: string): string {
  const rel = posix.relative(posix.dirname(fromFile), toFile);
  return /[\s()<>]/.test(rel) ? `<${rel}>` : rel;
}

/**
 * Every link in `file` that resolves to a note in `from` now points at `to` (markdown links keep
 * their text and anchor; wikilinks keep their alias and heading). Returns null when nothing changed.
 */
export function retargetLinks(file: VaultFile, from: ReadonlySet<string>, to: string): string | null {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const link of file.links) {
    if (!link.resolved || !from.has(link.resolved) || link.kind === 'mention') continue;
    const raw = file.text.slice(link.offset, link.offset + link.length);
    let replaced: string | null = null;
    if (link.kind === 'wikilink') {
      replaced = raw.replace(/^\[\[([^\]|#]+)/, `[[${stem(to)}`);
    } else if (link.kind === 'markdown') {
      const anchor = /#[^)\s>]*/.exec(link.target)?.[0] ?? '';
      const dest = relativeLink(file.path, to) + anchor;
      const at = raw.lastIndexOf(link.target);
      if (at !== -1) replaced = raw.slice(0, at) + (dest.startsWith('<') && raw[at - 1] === '<' ? dest.slice(1, -1) : dest) + raw.slice(at + link.target.length);
    } else if (link.kind === 'definition') {
      const at = raw.indexOf(link.target);
      if (at !== -1) replaced = raw.slice(0, at) + relativeLink(file.path, to) + raw.slice(at + link.target.length);
    }
    if (replaced !== null && replaced !== raw) edits.push({ start: link.offset, end: link.offset + link.length, text: replaced });
  }
  if (edits.length === 0) return null;
  let out = file.text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return (file.bom ? '\uFEFF' : '') + out;
}

/** Links in `file` whose target (as written, or resolved) equals `from`, pointed at `to`. */
export function relinkTarget(file: VaultFile, from: string, to: string): string | null {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const link of file.links) {
    if (link.kind === 'mention') continue;
    if (link.target !== from && link.resolved !== from) continue;
    const raw = file.text.slice(link.offset, link.offset + link.length);
    const replaced = link.kind === 'wikilink'
      ? raw.replace(/^\[\[([^\]|#]+)/, `[[${stem(to)}`)
      : raw.slice(0, raw.lastIndexOf(link.target)) + relativeLink(file.path, to).replace(/^<|>$/g, '') + raw.slice(raw.lastIndexOf(link.target) + link.target.length);
    edits.push({ start: link.offset, end: link.offset + link.length, text: replaced });
  }
  if (edits.length === 0) return null;
  let out = file.text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return (file.bom ? '\uFEFF' : '') + out;
}

export interface LineEdits {
  /** 1-based original line numbers to drop. */
  readonly remove: Set<number>;
  /** 1-based original line numbers → replacement text. */
  readonly replace: Map<number, string>;
  readonly add: string[];
}

export const emptyLineEdits = (): LineEdits => ({ remove: new Set(), replace: new Map(), add: [] });

/** Applies line edits made against the original text, keeping its line endings and BOM. */
export function applyLineEdits(file: VaultFile, edits: LineEdits): string {
  const eol = file.crlf ? '\r\n' : '\n';
  const lines = file.text.split(/\r?\n/);
  const trailing = lines.length > 0 && lines[lines.length - 1] === '';
  if (trailing) lines.pop();
  const out: string[] = [];
  lines.forEach((l, i) => {
    const n = i + 1;
    if (edits.remove.has(n)) return;
    out.push(edits.replace.get(n) ?? l);
  });
  const existing = new Set(out);
  for (const a of edits.add) if (!existing.has(a)) { out.push(a); existing.add(a); }
  return `${file.bom ? '\uFEFF' : ''}${out.join(eol)}${out.length ? eol : ''}`;
}
