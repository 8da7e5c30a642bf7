/**
 * Files reused from `check --cache`: their bytes are those the record was made from, which decoded
 * without a problem, so the text is decoded (and the bytes even read) only if a rule asks, and the
 * YAML parsed again only if `data` is read. Classes with prototype getters and methods, not object
 * literals with closures: thousands of these are made per run, and V8 keeps class instances compact.
 * Methods must be called on the object (`file.position(o)`), never detached.
 */
import { readFileSync } from 'node:fs';
import {
  frontmatterRecord,
  splitFrontmatter,
  type CutValue,
  type Frontmatter,
  type FrontmatterError,
  type FrontmatterRecord,
} from './frontmatter.js';
import {
  stemOf,
  type FileRole,
  type FileStat,
  type Link,
  type NoteMeta,
  type ParsedFile,
  type ParseRecord,
  type VaultFile,
} from './model.js';
import type { ScanResult } from './scan.js';
import { computeLineStarts, decodeBytes, positionAt, type Position } from './decode.js';

class ReusedFrontmatter implements Frontmatter {
  readonly yamlOffset: number;
  readonly bodyOffset: number;
  readonly language: string;
  readonly error: FrontmatterError | null;
  readonly cutValues: readonly CutValue[];
  private parsed: Readonly<Record<string, unknown>> | null | undefined;

  constructor(
    private readonly record: FrontmatterRecord,
    private readonly file: { readonly text: string },
  ) {
    this.yamlOffset = record.yamlOffset;
    this.bodyOffset = record.bodyOffset;
    this.language = record.language;
    this.error = record.error;
    this.cutValues = record.cutValues;
    this.parsed = record.hasData ? undefined : null;
  }

  get yaml(): string {
    return this.file.text.slice(this.record.yamlOffset, this.record.yamlOffset + this.record.yamlLength);
  }

  get data(): Readonly<Record<string, unknown>> | null {
    if (this.parsed === undefined) this.parsed = splitFrontmatter(this.file.text)?.data ?? null;
    return this.parsed;
  }
}

export class ReusedFile implements ParsedFile {
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
  private decoded: string | null = null;
  private lineStarts: number[] | null = null;
  private loaded: Uint8Array | null;

  /** `bytes` null: the file was not read (unchanged since the record); read if a rule asks for it. */
  constructor(
    readonly path: string,
    readonly absPath: string,
    readonly role: FileRole,
    bytes: Uint8Array | null,
    stat: FileStat,
    private readonly record: ParseRecord,
  ) {
    this.loaded = bytes;
    this.stem = stemOf(path);
    this.size = stat.size;
    this.mtimeMs = stat.mtimeMs;
    this.mode = stat.mode;
    this.bom = record.bom;
    this.crlf = record.crlf;
    this.frontmatter = record.frontmatter && new ReusedFrontmatter(record.frontmatter, this);
    this.bodyOffset = record.frontmatter ? record.frontmatter.bodyOffset : 0;
    this.meta = record.meta;
  }

  get scan(): ScanResult {
    return (this.scanned ??= this.record.scan(() => this.text));
  }

  get bytes(): Uint8Array {
    return (this.loaded ??= readFileSync(this.absPath));
  }

  get text(): string {
    return (this.decoded ??= decodeBytes(this.bytes).text);
  }

  position(offset: number): Position {
    return positionAt((this.lineStarts ??= computeLineStarts(this.text)), offset);
  }

  lineCount(): number {
    const t = this.text;
    return t === '' ? 0 : (this.lineStarts ??= computeLineStarts(t)).length - (t.endsWith('\n') ? 1 : 0);
  }
}

/** The vault's view of a reused file: the same getters, passed through. */
export class ReusedVaultFile implements VaultFile {
  readonly path: string;
  readonly absPath: string;
  readonly role: FileRole;
  readonly stem: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly bom: boolean;
  readonly crlf: boolean;
  readonly problem = null;
  readonly frontmatter: VaultFile['frontmatter'];
  readonly bodyOffset: number;
  readonly meta: VaultFile['meta'];
  /** The links, or what gives them on first read (a holder: the file object itself is frozen). */
  private readonly given: { links: readonly Link[] | (() => readonly Link[]) };
  constructor(
    private readonly parsed: ParsedFile,
    links: readonly Link[] | (() => readonly Link[]),
  ) {
    this.given = { links };
    const p = parsed;
    this.path = p.path;
    this.absPath = p.absPath;
    this.role = p.role;
    this.stem = p.stem;
    this.size = p.size;
    this.mtimeMs = p.mtimeMs;
    this.mode = p.mode;
    this.bom = p.bom;
    this.crlf = p.crlf;
    this.frontmatter = p.frontmatter;
    this.bodyOffset = p.bodyOffset;
    this.meta = p.meta;
  }
  get links(): readonly Link[] {
    const g = this.given.links;
    return typeof g === 'function' ? (this.given.links = g()) : g;
  }
  get text(): string {
    return this.parsed.text;
  }
  get bytes(): Uint8Array {
    return this.parsed.bytes;
  }
  get codeRanges(): VaultFile['codeRanges'] {
    return this.parsed.scan.codeRanges;
  }
  /**
   * Rules report links by offset: a link's start (and a wikilink's end: `[[…]]` never spans a line)
   * has its line and column from the cache, so reporting it does not read and decode the file.
   */
  position(offset: number): ReturnType<VaultFile['position']> {
    let at = positionsOf.get(this);
    if (!at) {
      at = linkPositions(this.links);
      positionsOf.set(this, at);
    }
    return at.get(offset) ?? this.parsed.position(offset);
  }
  lineCount(): number {
    return this.parsed.lineCount();
  }
}

/** Built on first use (the file object is frozen). */
const positionsOf = new WeakMap<ReusedVaultFile, Map<number, Position>>();

function linkPositions(links: readonly Link[]): Map<number, Position> {
  const at = new Map<number, Position>();
  for (const l of links) {
    at.set(l.offset, { line: l.line, column: l.column });
    if (l.kind === 'wikilink') at.set(l.offset + l.length, { line: l.line, column: l.column + l.length });
  }
  return at;
}

/**
 * A parse record as plain data, for another thread (`check`'s file-rule worker, rules/parallel.ts):
 * the front matter's offsets and findings, the metadata, the code ranges, without the links (which
 * the worker's rules do not read). Only for a file that decoded without a problem, as every record.
 */
export interface PlainRecord {
  readonly frontmatter: FrontmatterRecord | null;
  readonly meta: NoteMeta;
  /** Code ranges, flat: start, end, start, end… */
  readonly codeRanges: readonly number[];
  readonly crlf: boolean;
  readonly bom: boolean;
}

export function plainRecord(p: ParsedFile): PlainRecord {
  const fm = p.frontmatter;
  const codeRanges: number[] = [];
  for (const [s, e] of p.scan.codeRanges) codeRanges.push(s, e);
  return {
    frontmatter: fm && frontmatterRecord(fm),
    meta: p.meta,
    codeRanges,
    crlf: p.crlf,
    bom: p.bom,
  };
}

/** The parse record of a plain one: its scan has the code ranges and no links. */
export function fromPlainRecord(r: PlainRecord): ParseRecord {
  return {
    frontmatter: r.frontmatter,
    meta: r.meta,
    scan: () => {
      const codeRanges: (readonly [number, number])[] = [];
      for (let i = 0; i + 1 < r.codeRanges.length; i += 2) codeRanges.push([r.codeRanges[i]!, r.codeRanges[i + 1]!]);
      return { links: [], codeRanges };
    },
    crlf: r.crlf,
    bom: r.bom,
  };
}
