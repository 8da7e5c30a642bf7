/** The line format of the check cache (check-cache.ts): one line per file (`Row`, `parseRow`), ASCII only. */
import type { Config } from '../config/schema.js';
import type { Finding } from '../rules/types.js';
import { settledBefore } from '../util/cache-dir.js';
import { sha1Base64 } from '../util/digest.js';
import { frontmatterRecord, type FrontmatterRecord } from '../vault/frontmatter.js';
import type { FileRole, FileStat, Link, NoteMeta, ParseRecord, Resolution, VaultFile } from '../vault/model.js';
import { scanFor } from '../vault/file.js';
import { lazyLink, suggestionPending } from '../vault/resolve.js';
import type { LinkKind } from '../vault/scan.js';

/** A file's stat when the row was written, trusted then (old enough not to be racy): what `unchanged` compares. */
export interface StatRow {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
}

/**
 * One file's record, as read from its line: the fields the stat fast path compares (`role`, `digest`, `stat`,
 * `flags`) are plain tab-separated cells, read without a JSON parse; the rest stays JSON text until a run
 * needs it (`Part`): `head` (the front matter record and metadata, as the parse has them) when the file is
 * reused, `links` (9 cells a link, LINK_CELLS) only when a rule reads the file's links, `codeRanges`
 * (start,end…) only when a rule reads them, `findings` only when a file rule's findings are asked for. An
 * unchanged vault whose rules' findings are remembered whole (check-cache.ts, the vault line) parses no
 * file's links, code ranges or findings at all.
 *
 * Line: `"path"` TAB role TAB digest TAB stat TAB flags TAB head TAB links TAB codeRanges TAB findings, where
 * stat is `size,mtimeMs,ctimeMs,ino,mode` or `-`. JSON text never holds a raw tab (JSON.stringify escapes it).
 */
export interface Row {
  readonly role: FileRole;
  /** sha1 of the file's bytes, base64. */
  readonly digest: string;
  /** null while the file was too recently changed to trust its stat. */
  readonly stat: StatRow | null;
  /** 1: CRLF line ends, 2: a BOM. */
  readonly flags: number;
  readonly head: Part<Head>;
  readonly links: Part<(string | number)[]>;
  readonly codeRanges: Part<number[]>;
  /** The file rules' findings, by rule id (a rule with none is absent). */
  readonly findings: Part<Record<string, Finding[]>>;
}

/** The JSON `head` cell. */
export interface Head {
  readonly frontmatter: FrontmatterRecord | null;
  readonly meta: NoteMeta;
}

/** A JSON cell, parsed and checked on first read; null when it does not parse or has the wrong shape (a miss). */
export class Part<T> {
  private value: T | null | undefined;
  constructor(
    private readonly text: string,
    private readonly check: (v: unknown) => v is T,
  ) {}
  get(): T | null {
    if (this.value === undefined) {
      let v: unknown;
      try {
        v = JSON.parse(this.text);
      } catch {
        v = undefined;
      }
      this.value = this.check(v) ? v : null;
    }
    return this.value;
  }
  /** The cell as it was read (written back unchanged). */
  raw(): string {
    return this.text;
  }
}

/** Cells of a row after its key. */
const CELLS = 8;
const ROLES: ReadonlySet<string> = new Set<FileRole>(['note', 'index', 'catalog', 'secondary-index', 'hermes-store']);

/** The record after a line's tab (`line` without its key), or null for a line of another shape. */
export function parseRow(line: string): Row | null {
  const cells: string[] = [];
  let at = 0;
  for (let i = 0; i < CELLS - 1; i++) {
    const tab = line.indexOf('\t', at);
    if (tab === -1) return null;
    cells.push(line.slice(at, tab));
    at = tab + 1;
  }
  if (line.indexOf('\t', at) !== -1) return null;
  cells.push(line.slice(at));
  const [role, digest, statCell, flagsCell, head, links, code, findings] = cells as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const flags = Number(flagsCell);
  if (!ROLES.has(role) || digest === '' || !/^[0-3]$/.test(flagsCell)) return null;
  let stat: StatRow | null = null;
  if (statCell !== '-') {
    const n = statCell.split(',');
    if (n.length !== 5 || n.some((x) => x === '' || !Number.isFinite(Number(x)))) return null;
    stat = { size: Number(n[0]), mtimeMs: Number(n[1]), ctimeMs: Number(n[2]), ino: Number(n[3]), mode: Number(n[4]) };
  }
  return {
    role: role as FileRole,
    digest,
    stat,
    flags,
    head: new Part(head, isHead),
    links: new Part(links, isLinks),
    codeRanges: new Part(code, isCodeRanges),
    findings: new Part(findings, isFindings),
  };
}

/**
 * A row's line after its key: the cells of `parseRow`, from a file as parsed (or reused) in this run.
 * `findings`: the file rules' findings, or their cell as it was read (or `null`: not known).
 */
export function encodeFile(
  f: VaultFile,
  digest: string,
  stat: FileStat | undefined,
  findings: Record<string, Finding[]> | string,
  trustedBefore: number,
): string {
  const fm = f.frontmatter;
  const links: (string | number)[] = [];
  for (const l of f.links)
    links.push(
      l.kind,
      l.target,
      l.offset,
      l.length,
      l.line,
      l.column,
      l.resolved ?? 0,
      l.resolution,
      suggestionCell(l),
    );
  const codeRanges: number[] = [];
  for (const [s, end] of f.codeRanges) codeRanges.push(s, end);
  const st = stat;
  const head: Head = {
    frontmatter: fm ? frontmatterRecord(fm) : null,
    meta: copyMeta(f.meta),
  };
  const statCell =
    st !== undefined && isTrusted(st, trustedBefore)
      ? `${st.size},${st.mtimeMs},${st.ctimeMs},${st.ino},${st.mode}`
      : '-';
  return [
    f.role,
    digest,
    statCell,
    String((f.crlf ? 1 : 0) | (f.bom ? 2 : 0)),
    asciiOnly(JSON.stringify(head)),
    asciiOnly(JSON.stringify(links)),
    JSON.stringify(codeRanges),
    typeof findings === 'string' ? findings : asciiOnly(JSON.stringify(findings)),
  ].join('\t');
}

/** A link in `Row.links`: kind, target, offset, length, line, column, resolved (0: none), resolution, suggestion (suggestionCell). */
const LINK_CELLS = 9;
const OFFSET = 2,
  RESOLVED = 6,
  RESOLUTION = 7,
  SUGGESTION = 8;

/**
 * The file is kept to ASCII (\\u escapes): V8 then holds it in one byte per character instead of two,
 * which halves what reading it costs once any note has a non-Latin name.
 */
const NON_ASCII = /[\u0080-\uffff]/g;
export const asciiOnly = (line: string): string =>
  line.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const keyOf = (path: string): string => asciiOnly(JSON.stringify(path));

export const configKey = (config: Config): string => sha1Base64(JSON.stringify(config));

export function isTrusted(st: FileStat, trustedBefore: number): st is FileStat & { ctimeMs: number; ino: number } {
  return (
    st.ctimeMs !== undefined &&
    st.ino !== undefined &&
    settledBefore({ mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs }, trustedBefore)
  );
}

/** A link's suggestion in a row: the stem, 0 for none, NOT_ASKED while did-you-mean was never run for it (it runs when read). */
const NOT_ASKED = -1;
const suggestionCell = (l: Link): string | number => (suggestionPending(l) ? NOT_ASKED : (l.suggestion ?? 0));

/** Without `suggest` (the scan of a reused file, before resolution) a suggestion never asked for reads null. */
export function decodeLinks(
  flat: readonly (string | number)[],
  suggest?: (link: Pick<Link, 'kind' | 'target'>) => () => string | null,
): Link[] {
  const links: Link[] = [];
  for (let i = 0; i + LINK_CELLS - 1 < flat.length; i += LINK_CELLS) {
    const cell = flat[i + SUGGESTION];
    const kind = flat[i] as LinkKind,
      target = flat[i + 1] as string,
      offset = flat[i + 2] as number,
      length = flat[i + 3] as number;
    const line = flat[i + 4] as number,
      column = flat[i + 5] as number,
      resolved = flat[i + 6] === 0 ? null : (flat[i + 6] as string);
    const resolution = flat[i + 7] as Resolution;
    if (suggest && typeof cell === 'number' && cell !== 0) {
      const fields = { kind, target, offset, length, line, column, resolved, resolution };
      links.push(lazyLink(fields, suggest(fields)));
    } else {
      // A plain literal (one hidden class for every link), as links of a fresh parse are.
      links.push(
        Object.freeze({
          kind,
          target,
          offset,
          length,
          line,
          column,
          resolved,
          resolution,
          suggestion: typeof cell === 'number' ? null : (cell as string),
        }),
      );
    }
  }
  return links;
}

/** Whether a row's resolved links are those the file has now (after the vault changed shape). */
export function sameLinks(row: Row | null, links: readonly Link[]): boolean {
  const flat = row?.links.get();
  if (!flat || flat.length !== links.length * LINK_CELLS) return false;
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    const at = i * LINK_CELLS;
    if (
      flat[at + OFFSET] !== l.offset ||
      flat[at + RESOLVED] !== (l.resolved ?? 0) ||
      flat[at + RESOLUTION] !== l.resolution ||
      flat[at + SUGGESTION] !== suggestionCell(l)
    )
      return false;
  }
  return true;
}

/** A note's metadata as a fresh literal with exactly NoteMeta's fields, in their order. */
function copyMeta(m: NoteMeta): NoteMeta {
  return {
    name: m.name,
    description: m.description,
    type: m.type,
    modified: m.modified,
    origin: m.origin,
    shape: m.shape,
  };
}

/**
 * The parse a row records, or undefined when its head does not read (a miss). Links and code ranges are
 * decoded when first asked for; a cell that does not read then is a miss too, and the file's own text is
 * scanned instead (`scanFor`, as a fresh parse scans it).
 */
export function decodeParse(row: Row): ParseRecord | undefined {
  const head = row.head.get();
  if (head === null) return undefined;
  const { frontmatter: fm, meta: m } = head;
  const { links, codeRanges: code, flags, role } = row;
  return {
    // Fresh literals with exactly the parse's fields (a row read from disk may carry others).
    frontmatter: fm && {
      yamlOffset: fm.yamlOffset,
      yamlLength: fm.yamlLength,
      bodyOffset: fm.bodyOffset,
      language: fm.language,
      hasData: fm.hasData,
      error: fm.error,
      cutValues: fm.cutValues,
    },
    meta: Object.freeze(copyMeta(m)),
    scan: (text) => {
      const flat = links.get(),
        ranges = code.get();
      if (flat === null || ranges === null) return scanFor(role, text(), fm ? fm.bodyOffset : 0);
      const codeRanges: (readonly [number, number])[] = [];
      for (let i = 0; i + 1 < ranges.length; i += 2) codeRanges.push([ranges[i]!, ranges[i + 1]!]);
      return { links: decodeLinks(flat), codeRanges };
    },
    crlf: (flags & 1) !== 0,
    bom: (flags & 2) !== 0,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type FieldType = 'number' | 'string' | 'boolean' | 'string?';
type Fields = readonly (readonly [string, FieldType])[];
/** Whether `o` has each of `fields` with that `typeof` ('string?': a string or null). */
function hasFields(o: Record<string, unknown>, fields: Fields): boolean {
  for (let i = 0; i < fields.length; i++) {
    const [k, want] = fields[i]!;
    const v = o[k];
    if (want === 'string?' ? v !== null && typeof v !== 'string' : typeof v !== want) return false;
  }
  return true;
}
const FRONTMATTER_FIELDS: Fields = [
  ['yamlOffset', 'number'],
  ['yamlLength', 'number'],
  ['bodyOffset', 'number'],
  ['language', 'string'],
  ['hasData', 'boolean'],
];
const META_FIELDS: Fields = [
  ['name', 'string?'],
  ['description', 'string?'],
  ['type', 'string?'],
  ['modified', 'string?'],
  ['origin', 'string?'],
  ['shape', 'string'],
];

/** The head cell's shape (a foreign or hand-edited line is a miss, never misread). */
export function isHead(v: unknown): v is Head {
  if (!isObject(v)) return false;
  const { frontmatter: fm, meta } = v;
  if (
    fm !== null &&
    !(
      isObject(fm) &&
      hasFields(fm, FRONTMATTER_FIELDS) &&
      (fm.error === null || isObject(fm.error)) &&
      Array.isArray(fm.cutValues)
    )
  )
    return false;
  return isObject(meta) && hasFields(meta, META_FIELDS);
}

/** Flat links: per link two strings, four numbers, resolved (a path or 0), a resolution, a suggestion (a stem or a number). */
export function isLinks(v: unknown): v is (string | number)[] {
  if (!Array.isArray(v) || v.length % LINK_CELLS !== 0) return false;
  for (let i = 0; i < v.length; i += LINK_CELLS) {
    const r: unknown = v[i + RESOLVED],
      s: unknown = v[i + SUGGESTION];
    if (
      typeof v[i] !== 'string' ||
      typeof v[i + 1] !== 'string' ||
      typeof v[i + OFFSET] !== 'number' ||
      typeof v[i + 3] !== 'number' ||
      typeof v[i + 4] !== 'number' ||
      typeof v[i + 5] !== 'number' ||
      (r !== 0 && typeof r !== 'string') ||
      typeof v[i + RESOLUTION] !== 'string' ||
      (typeof s !== 'string' && typeof s !== 'number')
    )
      return false;
  }
  return true;
}

export const isCodeRanges = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length % 2 === 0 && v.every((x) => typeof x === 'number');

/** Findings by rule id: an object of arrays (the findings themselves are as the rules made them). */
export const isFindings = (v: unknown): v is Record<string, Finding[]> =>
  isObject(v) && Object.values(v).every((x) => Array.isArray(x));
