/** The line format of the check cache (check-cache.ts): one JSON object per file (`Row`), ASCII only. */
import type { Config } from '../config/schema.js';
import type { Finding } from '../rules/types.js';
import { settledBefore } from '../util/cache-dir.js';
import { sha1Base64 } from '../util/digest.js';
import type { FrontmatterRecord } from '../vault/frontmatter.js';
import type { FileRole, FileStat, Link, NoteMeta, ParseRecord, Resolution, VaultFile } from '../vault/model.js';
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
 * One file's record: the JSON object after the tab on its line. `frontmatter` and `meta` are stored as the
 * parse has them (`FrontmatterRecord`, `NoteMeta`); links and code ranges stay flat arrays (most of a line's
 * bytes: a key per cell would double them): `links` is 9 cells a link (LINK_CELLS), `codeRanges` start,end….
 */
export interface Row {
  readonly role: FileRole;
  /** sha1 of the file's bytes, base64. */
  readonly digest: string;
  readonly frontmatter: FrontmatterRecord | null;
  readonly meta: NoteMeta;
  readonly links: (string | number)[];
  readonly codeRanges: number[];
  /** The file rules' findings, by rule id (a rule with none is absent). */
  readonly findings: Record<string, Finding[]>;
  /** 1: CRLF line ends, 2: a BOM. */
  readonly flags: number;
  /** null while the file was too recently changed to trust its stat. */
  readonly stat: StatRow | null;
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

export function encodeFile(
  f: VaultFile,
  digest: string,
  stat: FileStat | undefined,
  findings: Record<string, Finding[]>,
  trustedBefore: number,
): Row {
  const fm = f.frontmatter;
  const m = f.meta;
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
  const trusted = st !== undefined && isTrusted(st, trustedBefore);
  return {
    role: f.role,
    digest,
    frontmatter: fm
      ? {
          yamlOffset: fm.yamlOffset,
          yamlLength: fm.yaml.length,
          bodyOffset: fm.bodyOffset,
          language: fm.language,
          hasData: fm.data !== null,
          error: fm.error,
          cutValues: fm.cutValues,
        }
      : null,
    meta: copyMeta(m),
    links,
    codeRanges,
    findings,
    flags: (f.crlf ? 1 : 0) | (f.bom ? 2 : 0),
    stat: trusted ? { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode } : null,
  };
}

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
  const flat = row?.links;
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

export function decodeParse(row: Row): ParseRecord {
  const { frontmatter: fm, meta: m, links, codeRanges: code, flags } = row;
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
    scan: () => {
      const codeRanges: (readonly [number, number])[] = [];
      for (let i = 0; i + 1 < code.length; i += 2) codeRanges.push([code[i]!, code[i + 1]!]);
      return { links: decodeLinks(links), codeRanges };
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
const ROW_FIELDS: Fields = [
  ['role', 'string'],
  ['digest', 'string'],
  ['flags', 'number'],
];
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
const STAT_FIELDS: Fields = [
  ['size', 'number'],
  ['mtimeMs', 'number'],
  ['ctimeMs', 'number'],
  ['ino', 'number'],
  ['mode', 'number'],
];

/** The shape of a row as read from disk (a foreign or hand-edited line is a miss, never misread). */
export function isRow(v: unknown): v is Row {
  if (!isObject(v) || !hasFields(v, ROW_FIELDS) || !isObject(v.findings)) return false;
  const { frontmatter: fm, meta, stat } = v;
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
  if (!isObject(meta) || !hasFields(meta, META_FIELDS)) return false;
  if (stat !== null && !(isObject(stat) && hasFields(stat, STAT_FIELDS))) return false;
  return (
    Array.isArray(v.links) &&
    v.links.length % LINK_CELLS === 0 &&
    Array.isArray(v.codeRanges) &&
    v.codeRanges.length % 2 === 0
  );
}
