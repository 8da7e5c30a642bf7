/** Reading one markdown file into its parsed, position-aware form (links still unresolved). */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { splitFrontmatter } from './frontmatter.js';
import { checkFault } from '../util/fault.js';
import { ReusedFile, ReusedVaultFile } from './reused.js';
import { EMPTY_META, readMeta } from './meta.js';
import {
  stemOf,
  type FileRole,
  type FileStat,
  type Link,
  type ParseCache,
  type ParsedFile,
  type ParseRecord,
  type VaultFile,
} from './model.js';
import { scanMarkdown, type ScanResult } from './scan.js';
import { computeLineStarts, decodeBytes, hasCrlf, positionAt, type DecodeProblem } from './decode.js';
import type { ByteAlloc } from '../util/arena.js';

const EMPTY_SCAN: ScanResult = Object.freeze({ links: [], codeRanges: [] });

/** Parses text that is already in memory (a guard draft, a file just read). */
export interface ParseOptions {
  readonly cache?: ParseCache;
  /** false: links and code are not looked for (guard's signatures need only the text and the metadata). */
  readonly scan?: boolean;
  /** The path as bytes, for a file whose name is not valid UTF-8 (discover's `raw`). */
  readonly raw?: Buffer;
  /** Where a whole file's bytes are read into (`check`: a shared arena, src/util/arena.ts); else a buffer of its own. */
  readonly alloc?: ByteAlloc;
  /** The bytes' text, decoded already (`decodeMany`: valid UTF-8 without a BOM). */
  readonly text?: string;
  /** false: a file whose text is its bytes decoded (`text` given) does not keep them (`ParsedFile.encoded`). */
  readonly keepBytes?: boolean;
}

export function parseMarkdown(
  path: string,
  absPath: string,
  role: FileRole,
  bytes: Uint8Array,
  stat: FileStat,
  maxBytes: number,
  options: ParseOptions = {},
): ParsedFile {
  const { cache } = options;
  const tooLarge = stat.size > maxBytes;
  // A record exists only for bytes that decoded without a problem: the same bytes decode the same
  // way, so a reused file's text is decoded only when something reads it.
  const reused = cache && !tooLarge ? cache.reuse(path, role, bytes, stat) : undefined;
  if (reused) return fromRecord(path, absPath, role, bytes, stat, reused);
  let text = '';
  let bom = false;
  let problem: DecodeProblem | null;
  let encoded = false;
  if (tooLarge) {
    problem = {
      kind: 'too-large',
      offset: 0,
      detail: `${stat.size} bytes, more than the ${maxBytes}-byte limit; its first ${maxBytes} bytes checked for security only`,
    };
    // `bytes` holds the file's first maxBytes (readMarkdownFile): the part a harness would load. Its text
    // is kept for the security rules only (isReadable stays false: no other rule and no writer uses it).
    text = headText(bytes);
    bytes = new Uint8Array(0);
  } else if (options.text !== undefined) {
    text = options.text;
    problem = null;
    encoded = options.keepBytes === false;
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
  // The line starts are found once: the scanner reads its lines from them, and positions are read from them.
  const scanned = readable && options.scan !== false && role !== 'hermes-store';
  const lineStarts = scanned ? computeLineStarts(text) : null;
  const scan = lineStarts ? scanMarkdown(text, bodyOffset, lineStarts) : EMPTY_SCAN;
  if (cache && problem === null) cache.keep(path);
  const positions = lazyPositions(() => text, lineStarts);
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
    crlf: lineStarts ? hasCrlf(text, lineStarts) : text.includes('\r\n'),
    problem,
    frontmatter,
    bodyOffset,
    meta,
    scan,
    ...positions,
    ...(encoded ? { encoded: true as const } : {}),
  };
}

/** The links and code of a readable file's text in this role (a Hermes store's entries are not markdown). */
export const scanFor = (role: FileRole, text: string, bodyOffset: number): ScanResult =>
  role === 'hermes-store' ? EMPTY_SCAN : scanMarkdown(text, bodyOffset);

/** The text of a file's first bytes, cut at the last whole character (a BOM dropped, bad bytes as U+FFFD). */
function headText(bytes: Uint8Array): string {
  let end = bytes.length;
  // Step back over a character the cut split: continuation bytes (10xxxxxx) and the lead byte before them.
  let back = 0;
  while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
    if (back < need) end -= back + 1;
  }
  return decodeBytes(bytes.subarray(0, end)).text;
}

function lazyPositions(text: () => string, known: number[] | null): Pick<ParsedFile, 'position' | 'lineCount'> {
  let lineStarts = known;
  const starts = (): number[] => (lineStarts ??= computeLineStarts(text()));
  return {
    position: (offset: number) => positionAt(starts(), offset),
    lineCount: () => {
      const t = text();
      return t === '' ? 0 : starts().length - (t.endsWith('\n') ? 1 : 0);
    },
  };
}

function fromRecord(
  path: string,
  absPath: string,
  role: FileRole,
  bytes: Uint8Array,
  stat: FileStat,
  r: ParseRecord,
): ParsedFile {
  return new ReusedFile(path, absPath, role, bytes, stat, r);
}

/**
 * The one way a VaultFile is made: a parsed file with its resolved links. `as` replaces fields of the parse
 * (a Hermes entry seen as a note: its own stem and text, positions in the store file).
 */
export function makeVaultFile(
  p: ParsedFile,
  given: readonly Link[] | (() => readonly Link[]),
  as?: Partial<Omit<VaultFile, 'links' | 'codeRanges'>>,
): VaultFile {
  // A file reused from `check --cache` keeps its text undecoded, and its links (when given as a function)
  // unread, until a rule reads them.
  if (p.reused && as === undefined) return Object.freeze(new ReusedVaultFile(p, given));
  const links = typeof given === 'function' ? given() : given;
  if (p.encoded && as === undefined) return Object.freeze(new EncodedVaultFile(p, links));
  const f: VaultFile = {
    path: p.path,
    absPath: p.absPath,
    role: p.role,
    stem: p.stem,
    size: p.size,
    mtimeMs: p.mtimeMs,
    mode: p.mode,
    bytes: p.bytes,
    text: p.text,
    bom: p.bom,
    crlf: p.crlf,
    problem: p.problem,
    frontmatter: p.frontmatter,
    bodyOffset: p.bodyOffset,
    meta: p.meta,
    links,
    codeRanges: p.scan.codeRanges,
    position: p.position,
    lineCount: p.lineCount,
  };
  return Object.freeze(as ? { ...f, ...as } : f);
}

/**
 * A VaultFile whose bytes are exactly its text's UTF-8 (`ParsedFile.encoded`): they are encoded again, once, when
 * something reads them (in `check`, nothing does), instead of being held beside the text.
 */
class EncodedVaultFile implements VaultFile {
  readonly path: string;
  readonly absPath: string;
  readonly role: FileRole;
  readonly stem: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly text: string;
  readonly bom: boolean;
  readonly crlf: boolean;
  readonly problem: VaultFile['problem'];
  readonly frontmatter: VaultFile['frontmatter'];
  readonly bodyOffset: number;
  readonly meta: VaultFile['meta'];
  readonly links: readonly Link[];
  readonly codeRanges: VaultFile['codeRanges'];
  readonly position: VaultFile['position'];
  readonly lineCount: VaultFile['lineCount'];
  #bytes: Uint8Array | null = null;

  constructor(p: ParsedFile, links: readonly Link[]) {
    this.path = p.path;
    this.absPath = p.absPath;
    this.role = p.role;
    this.stem = p.stem;
    this.size = p.size;
    this.mtimeMs = p.mtimeMs;
    this.mode = p.mode;
    this.text = p.text;
    this.bom = p.bom;
    this.crlf = p.crlf;
    this.problem = p.problem;
    this.frontmatter = p.frontmatter;
    this.bodyOffset = p.bodyOffset;
    this.meta = p.meta;
    this.links = links;
    this.codeRanges = p.scan.codeRanges;
    this.position = p.position;
    this.lineCount = p.lineCount;
  }

  get bytes(): Uint8Array {
    return (this.#bytes ??= Buffer.from(this.text, 'utf8'));
  }
}

/** One open, one fstat, one read: size, mtime and mode come with the bytes, not from a second stat. */
export function readMarkdownFile(
  path: string,
  absPath: string,
  role: FileRole,
  maxBytes: number,
  options: ParseOptions = {},
): ParsedFile {
  const known = options.cache?.unchanged(path, absPath, role);
  if (known) return new ReusedFile(path, absPath, role, null, known.stat, known.record);
  const { bytes, stat } = readFileBytes(absPath, maxBytes, options);
  return parseMarkdown(path, absPath, role, bytes, stat, maxBytes, options);
}

/** A file's bytes (its first maxBytes when larger: `parseMarkdown` reads them so) and its stat. */
export function readFileBytes(
  absPath: string,
  maxBytes: number,
  options: Pick<ParseOptions, 'raw' | 'alloc'> = {},
): { readonly bytes: Uint8Array; readonly stat: FileStat } {
  checkFault('open', absPath);
  const fd = openSync(options.raw ?? absPath, 'r');
  let bytes: Uint8Array;
  let stat: FileStat;
  try {
    const st = fstatSync(fd);
    stat = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode, ctimeMs: st.ctimeMs, ino: st.ino };
    if (st.size > maxBytes) {
      // Only the part a harness would load: the security rules scan it (never the whole file into memory).
      const head = Buffer.allocUnsafe(maxBytes);
      let off = 0;
      while (off < maxBytes) {
        const n = readSync(fd, head, off, maxBytes - off, off);
        if (n === 0) break;
        off += n;
      }
      bytes = head.subarray(0, off);
    } else {
      const buf = options.alloc ? options.alloc(st.size) : Buffer.allocUnsafe(st.size);
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
  return { bytes, stat };
}
