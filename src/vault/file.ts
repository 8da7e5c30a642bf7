/** Reading one markdown file into its parsed, position-aware form (links still unresolved). */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { splitFrontmatter, type Frontmatter } from './frontmatter.js';
import { EMPTY_META, readMeta } from './meta.js';
import type { FileRole, NoteMeta } from './model.js';
import { scanMarkdown, type ScanResult } from './scan.js';
import { computeLineStarts, decodeBytes, positionAt, type DecodeProblem, type Position } from './text.js';

export interface ParsedFile {
  readonly path: string;
  readonly absPath: string;
  readonly role: FileRole;
  readonly stem: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly bom: boolean;
  readonly crlf: boolean;
  readonly problem: DecodeProblem | null;
  readonly frontmatter: Frontmatter | null;
  readonly bodyOffset: number;
  readonly meta: NoteMeta;
  readonly scan: ScanResult;
  position(offset: number): Position;
  lineCount(): number;
}



const EMPTY_SCAN: ScanResult = Object.freeze({ links: [], codeRanges: [] });

export interface FileStat { size: number; mtimeMs: number; mode: number }

export function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.toLowerCase().endsWith('.md') ? base.slice(0, -3) : base;
}

/** Parses text that is already in memory (a guard draft, a file just read). */
export function parseMarkdown(path: string, absPath: string, role: FileRole, bytes: Uint8Array, stat: FileStat, maxBytes: number): ParsedFile {
  let text = '';
  let bom = false;
  let problem: DecodeProblem | null;
  if (stat.size > maxBytes) {
    problem = { kind: 'too-large', offset: 0, detail: `${stat.size} bytes, more than the ${maxBytes}-byte limit` };
  } else {
    const decoded = decodeBytes(bytes);
    text = decoded.text;
    bom = decoded.bom;
    problem = decoded.problem;
  }
  const readable = problem === null || problem.kind === 'invalid-utf8';
  const frontmatter = readable && role === 'note' ? splitFrontmatter(text) : null;
  const bodyOffset = frontmatter ? frontmatter.bodyOffset : 0;
  const meta = frontmatter?.data ? readMeta(frontmatter.data) : EMPTY_META;
  const scan = readable && role !== 'hermes-store' ? scanMarkdown(text, bodyOffset) : EMPTY_SCAN;
  let lineStarts: number[] | null = null;
  const starts = (): number[] => (lineStarts ??= computeLineStarts(text));
  return {
    path,
    absPath,
    role,
    stem: stemOf(path),
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    mode: stat.mode,
    bytes,
    text,
    bom,
    crlf: text.includes('\r\n'),
    problem,
    frontmatter,
    bodyOffset,
    meta,
    scan,
    position: (offset: number) => positionAt(starts(), offset),
    lineCount: () => (text === '' ? 0 : starts().length - (text.endsWith('\n') ? 1 : 0)),
  };
}

/** One open, one fstat, one read: size, mtime and mode come with the bytes, not from a second stat. */
export function readMarkdownFile(path: string, absPath: string, role: FileRole, maxBytes: number): ParsedFile {
  const fd = openSync(absPath, 'r');
  let bytes: Uint8Array;
  let stat: FileStat;
  try {
    const st = fstatSync(fd);
    stat = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode };
    if (st.size > maxBytes) {
      bytes = new Uint8Array(0);
    } else {
      const buf = Buffer.allocUnsafe(st.size);
      let off = 0;
      while (off < st.size) {
        const n = readSync(fd, buf, off, st.size - off, off);
        if (n === 0) break;
        off += n;
      }
      bytes = off === st.size ? buf : buf.subarray(0, off);
    }
  } finally {
    closeSync(fd);
  }
  return parseMarkdown(path, absPath, role, bytes, stat, maxBytes);
}
