/** Text transformations that apply plans: front matter stays byte-identical, links are retargeted. */
import { posix } from 'node:path';
import type { Link, VaultFile } from '../vault/model.js';
import { count } from '../util/counters.js';

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
 * One link's raw text pointed at `to` (markdown links keep their text and anchor, wikilinks their
 * alias and heading), written relative to `fromPath`; null when it cannot be rewritten.
 */
export function retargetedLink(fromPath: string, link: Link, raw: string, to: string): string | null {
  if (link.kind === 'wikilink') return raw.replace(/^\[\[([^\]|#]+)/, `[[${stem(to)}`);
  if (link.kind !== 'markdown' && link.kind !== 'definition') return null;
  const at = link.kind === 'markdown' ? raw.lastIndexOf(link.target) : raw.indexOf(link.target);
  if (at === -1) return null;
  const anchor = link.kind === 'markdown' ? (/#[^)\s>]*/.exec(link.target)?.[0] ?? '') : '';
  const dest = relativeLink(fromPath, to) + anchor;
  return (
    raw.slice(0, at) +
    (dest.startsWith('<') && raw[at - 1] === '<' ? dest.slice(1, -1) : dest) +
    raw.slice(at + link.target.length)
  );
}

function rewrite(text: string, base: number, links: readonly Link[], fromPath: string, to: string): string {
  let out = text;
  for (const l of [...links].sort((a, b) => b.offset - a.offset)) {
    const rel = l.offset - base;
    const replaced = retargetedLink(fromPath, l, out.slice(rel, rel + l.length), to);
    if (replaced !== null) out = out.slice(0, rel) + replaced + out.slice(rel + l.length);
  }
  return out;
}

/** Every link of `file` that `matches` now points at `to`. Returns null when nothing changed. */
export function retargetLinks(file: VaultFile, matches: (l: Link) => boolean, to: string): string | null {
  const links = file.links.filter((l) => l.kind !== 'mention' && matches(l));
  const out = rewrite(file.text, 0, links, file.path, to);
  return out === file.text ? null : (file.bom ? '\uFEFF' : '') + out;
}

/**
 * A file's text split at `\n` (`fileLines`) or at `\r?\n` (`fileLinesNoCr`), memoized per file: an index is
 * edited by one item after another, each reading its lines.
 */
const linesMemo = new WeakMap<VaultFile, { readonly text: string; readonly lf: string[]; crlf?: string[] }>();
function memoOf(file: VaultFile): { readonly text: string; readonly lf: string[]; crlf?: string[] } {
  const hit = linesMemo.get(file);
  if (hit && hit.text === file.text) return hit;
  const m = { text: file.text, lf: file.text.split('\n') };
  linesMemo.set(file, m);
  return m;
}
export const fileLines = (file: VaultFile): readonly string[] => memoOf(file).lf;
export function fileLinesNoCr(file: VaultFile): readonly string[] {
  const m = memoOf(file);
  return (m.crlf ??= file.text.split(/\r?\n/));
}

/**
 * The same, line by line, for index files (whose edits are made against original line numbers).
 * `candidates`: the links `matches` is asked about, in file order (default every link of the file; a
 * caller with an index of the file's links passes only the ones that can match).
 */
export function retargetLines(
  file: VaultFile,
  matches: (l: Link) => boolean,
  to: string,
  candidates: readonly Link[] = file.links,
): Map<number, string> {
  const lines = fileLines(file);
  const byLine = new Map<number, Link[]>();
  count('apply.retargetLinkTests', candidates.length);
  for (const l of candidates) {
    if (l.kind === 'mention' || !matches(l)) continue;
    const list = byLine.get(l.line);
    if (list) list.push(l);
    else byLine.set(l.line, [l]);
  }
  const out = new Map<number, string>();
  for (const [line, links] of byLine) {
    const text = lines[line - 1]!.replace(/\r$/, '');
    out.set(line, rewrite(text, links[0]!.offset - (links[0]!.column - 1), links, file.path, to));
  }
  return out;
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
  for (const a of edits.add)
    if (!existing.has(a)) {
      out.push(a);
      existing.add(a);
    }
  return `${file.bom ? '\uFEFF' : ''}${out.join(eol)}${out.length ? eol : ''}`;
}
