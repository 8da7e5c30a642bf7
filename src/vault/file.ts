/** Reading one markdown file into its parsed, position-aware form (links still unresolved). */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { frontmatterFromRecord, splitFrontmatter, type Frontmatter, type FrontmatterRecord } from './frontmatter.js';
import { EMPTY_META, readMeta } from './meta.js';
import type { FileRole, Link, NoteMeta } from './model.js';
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
  /** Reused from `check --cache`: `text` is a getter that decodes on first read. */
  readonly reused?: true;
}



/** What a parse cache keeps of one file: everything derived from its bytes except the text. */
export interface ParseRecord {
  readonly frontmatter: FrontmatterRecord | null;
  readonly meta: NoteMeta;
  /** Decoded on first use: a file whose links come resolved from the cache never needs it. */
  scan(): ScanResult;
  readonly crlf: boolean;
  readonly bom: boolean;
}

/**
 * `check --cache`: hands back the parse of exactly these bytes in this role from an earlier run,
 * and keeps the parses made now.
 */
export interface ParseCache {
  /** Before reading: the record of a file whose size, mtime, ctime and inode are those it was hashed with. */
  unchanged(path: string, absPath: string, role: FileRole): { readonly record: ParseRecord; readonly stat: FileStat } | undefined;
  /** After reading: the record of exactly these bytes in this role. */
  reuse(path: string, role: FileRole, bytes: Uint8Array, stat: FileStat): ParseRecord | undefined;
  /** These bytes were parsed now: the cache records the file as the vault holds it. */
  keep(path: string): void;
  /** The vault's shape now (paths, roles, names, other files): links resolve against it. */
  useShape(shape: string): void;
  /** A reused file's links as resolved in the last run, if the vault had the same shape then. */
  resolvedLinks(path: string): readonly Link[] | undefined;
}

const EMPTY_SCAN: ScanResult = Object.freeze({ links: [], codeRanges: [] });

export interface FileStat {
  size: number;
  mtimeMs: number;
  mode: number;
  /** Known for files read from disk: what `check --cache` compares before trusting a record. */
  ctimeMs?: number;
  ino?: number;
}

export function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.toLowerCase().endsWith('.md') ? base.slice(0, -3) : base;
}

/** Parses text that is already in memory (a guard draft, a file just read). */
export function parseMarkdown(path: string, absPath: string, role: FileRole, bytes: Uint8Array, stat: FileStat, maxBytes: number, cache?: ParseCache): ParsedFile {
  const tooLarge = stat.size > maxBytes;
  // A record exists only for bytes that decoded without a problem: the same bytes decode the same
  // way, so a reused file's text is decoded only when something reads it.
  const reused = cache && !tooLarge ? cache.reuse(path, role, bytes, stat) : undefined;
  if (reused) return fromRecord(path, absPath, role, bytes, stat, reused);
  let text = '';
  let bom = false;
  let problem: DecodeProblem | null;
  if (tooLarge) {
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
  if (cache && problem === null) cache.keep(path);
  const positions = lazyPositions(() => text);
  return {
    path, absPath, role, stem: stemOf(path), size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode, bytes, text, bom,
    crlf: text.includes('\r\n'), problem, frontmatter, bodyOffset, meta, scan, ...positions,
  };
}

function lazyPositions(text: () => string): Pick<ParsedFile, 'position' | 'lineCount'> {
  let lineStarts: number[] | null = null;
  const starts = (): number[] => (lineStarts ??= computeLineStarts(text()));
  return {
    position: (offset: number) => positionAt(starts(), offset),
    lineCount: () => {
      const t = text();
      return t === '' ? 0 : starts().length - (t.endsWith('\n') ? 1 : 0);
    },
  };
}

/**
 * A file reused from `check --cache`: its bytes are those the record was made from, which decoded
 * without a problem, so the text is decoded only if a rule reads it (cross-file rules rarely do).
 */
function fromRecord(path: string, absPath: string, role: FileRole, bytes: Uint8Array, stat: FileStat, r: ParseRecord): ParsedFile {
  return new ReusedFile(path, absPath, role, bytes, stat, r);
}

/** A class, not an object literal with a getter: V8 keeps its properties fast. */
class ReusedFile implements ParsedFile {
  readonly stem: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly bom: boolean;
  readonly crlf: boolean;
  readonly problem = null;
  readonly frontmatter: Frontmatter | null;
  readonly bodyOffset: number;
  readonly meta: NoteMeta;
  readonly reused = true as const;
  private scanned: ScanResult | null = null;
  private readonly record: ParseRecord;
  readonly position: (offset: number) => Position;
  readonly lineCount: () => number;
  private decoded: string | null = null;

  private loaded: Uint8Array | null;

  /** `bytes` null: the file was not read (unchanged since the record); read if a rule asks for it. */
  constructor(readonly path: string, readonly absPath: string, readonly role: FileRole, bytes: Uint8Array | null, stat: FileStat, r: ParseRecord) {
    this.loaded = bytes;
    this.stem = stemOf(path);
    this.size = stat.size;
    this.mtimeMs = stat.mtimeMs;
    this.mode = stat.mode;
    this.bom = r.bom;
    this.crlf = r.crlf;
    const text = (): string => this.text;
    this.frontmatter = r.frontmatter && frontmatterFromRecord(r.frontmatter, text);
    this.bodyOffset = r.frontmatter ? r.frontmatter.bodyOffset : 0;
    this.meta = r.meta;
    this.record = r;
    const positions = lazyPositions(text);
    this.position = positions.position;
    this.lineCount = positions.lineCount;
  }

  get scan(): ScanResult {
    return (this.scanned ??= this.record.scan());
  }

  get bytes(): Uint8Array {
    return (this.loaded ??= readFileSync(this.absPath));
  }

  get text(): string {
    return (this.decoded ??= decodeBytes(this.bytes).text);
  }
}

/** One open, one fstat, one read: size, mtime and mode come with the bytes, not from a second stat. */
export function readMarkdownFile(path: string, absPath: string, role: FileRole, maxBytes: number, cache?: ParseCache): ParsedFile {
  const known = cache?.unchanged(path, absPath, role);
  if (known) return new ReusedFile(path, absPath, role, null, known.stat, known.record);
  const fd = openSync(absPath, 'r');
  let bytes: Uint8Array;
  let stat: FileStat;
  try {
    const st = fstatSync(fd);
    stat = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode, ctimeMs: st.ctimeMs, ino: st.ino };
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
  return parseMarkdown(path, absPath, role, bytes, stat, maxBytes, cache);
}
