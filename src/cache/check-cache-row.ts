/** The line format of the check cache (check-cache.ts): one JSON array per file, ASCII only. */
import type { Config } from '../config/schema.js';
import type { Finding } from '../rules/types.js';
import { settledBefore } from '../util/cache-dir.js';
import { sha1Base64 } from '../util/digest.js';
import type { FrontmatterRecord } from '../vault/frontmatter.js';
import type { FileStat, ParseRecord } from '../vault/file.js';
import type { FileRole, Link, NoteMeta, Resolution, VaultFile } from '../vault/model.js';
import { lazyLink, suggestionPending } from '../vault/resolve.js';
import type { LinkKind } from '../vault/scan.js';

export type FmRow = [number, number, number, string, 0 | 1, FrontmatterRecord['error'], FrontmatterRecord['cutValues']];
export type MetaRow = [string | null, string | null, string | null, string | null, string | null, NoteMeta['shape']];
export type StatRow = [number, number, number, number, number];
/**
 * [role, sha1, front matter | 0, meta, links as kind,target,offset,length,line,column,resolved,
 * resolution,suggestion…, code ranges
 * as start,end…, findings by rule, flags (1 CRLF, 2 BOM), stat as size,mtime,ctime,inode,mode | 0]
 */
export type Row = [FileRole, string, FmRow | 0, MetaRow, (string | number)[], number[], Record<string, Finding[]>, number, StatRow | 0];

/**
 * The file is kept to ASCII (\\u escapes): V8 then holds it in one byte per character instead of two,
 * which halves what reading it costs once any note has a non-Latin name.
 */
const NON_ASCII = /[\u0080-\uffff]/g;
export const asciiOnly = (line: string): string => line.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const keyOf = (path: string): string => asciiOnly(JSON.stringify(path));

export const configKey = (config: Config): string => sha1Base64(JSON.stringify(config));

export function encodeFile(f: VaultFile, digest: string, stat: FileStat | undefined, findings: Record<string, Finding[]>, trustedBefore: number): Row {
  const fm = f.frontmatter;
  const m = f.meta;
  const links: (string | number)[] = [];
  for (const l of f.links) links.push(l.kind, l.target, l.offset, l.length, l.line, l.column, l.resolved ?? 0, l.resolution, suggestionCell(l));
  const code: number[] = [];
  for (const [s, end] of f.codeRanges) code.push(s, end);
  const st = stat;
  const trusted = st !== undefined && isTrusted(st, trustedBefore);
  return [
    f.role, digest,
    fm ? [fm.yamlOffset, fm.yaml.length, fm.bodyOffset, fm.language, fm.data !== null ? 1 : 0, fm.error, fm.cutValues] : 0,
    [m.name, m.description, m.type, m.modified, m.origin, m.shape],
    links, code, findings, (f.crlf ? 1 : 0) | (f.bom ? 2 : 0),
    trusted ? [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.mode] : 0,
  ];
}

export function isTrusted(st: FileStat, trustedBefore: number): st is FileStat & { ctimeMs: number; ino: number } {
  return st.ctimeMs !== undefined && st.ino !== undefined && settledBefore({ mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs }, trustedBefore);
}

/** A link's suggestion in a row: the stem, 0 for none, NOT_ASKED while did-you-mean was never run for it (it runs when read). */
const NOT_ASKED = -1;
const suggestionCell = (l: Link): string | number => (suggestionPending(l) ? NOT_ASKED : (l.suggestion ?? 0));

/** Without `suggest` (the scan of a reused file, before resolution) a suggestion never asked for reads null. */
export function decodeLinks(flat: readonly (string | number)[], suggest?: (link: Pick<Link, 'kind' | 'target'>) => () => string | null): Link[] {
  const links: Link[] = [];
  for (let i = 0; i + 8 < flat.length; i += 9) {
    const cell = flat[i + 8];
    const kind = flat[i] as LinkKind, target = flat[i + 1] as string, offset = flat[i + 2] as number, length = flat[i + 3] as number;
    const line = flat[i + 4] as number, column = flat[i + 5] as number, resolved = flat[i + 6] === 0 ? null : (flat[i + 6] as string);
    const resolution = flat[i + 7] as Resolution;
    if (suggest && typeof cell === 'number' && cell !== 0) {
      const fields = { kind, target, offset, length, line, column, resolved, resolution };
      links.push(lazyLink(fields, suggest(fields)));
    } else {
      // A plain literal (one hidden class for every link), as links of a fresh parse are.
      links.push(Object.freeze({ kind, target, offset, length, line, column, resolved, resolution, suggestion: typeof cell === 'number' ? null : (cell as string) }));
    }
  }
  return links;
}

/** Whether a row's resolved links are those the file has now (after the vault changed shape). */
export function sameLinks(row: Row | null, links: readonly Link[]): boolean {
  const flat = row?.[4];
  if (!flat || flat.length !== links.length * 9) return false;
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    const at = i * 9;
    if (flat[at + 2] !== l.offset || flat[at + 6] !== (l.resolved ?? 0) || flat[at + 7] !== l.resolution || flat[at + 8] !== suggestionCell(l)) return false;
  }
  return true;
}

export function decodeParse(row: Row): ParseRecord {
  const [, , fm, m, flat, code, , flags] = row;
  return {
    frontmatter: fm === 0 ? null : { yamlOffset: fm[0], yamlLength: fm[1], bodyOffset: fm[2], language: fm[3], hasData: fm[4] === 1, error: fm[5], cutValues: fm[6] },
    meta: Object.freeze({ name: m[0], description: m[1], type: m[2], modified: m[3], origin: m[4], shape: m[5] }),
    scan: () => {
      const codeRanges: (readonly [number, number])[] = [];
      for (let i = 0; i + 1 < code.length; i += 2) codeRanges.push([code[i]!, code[i + 1]!]);
      return { links: decodeLinks(flat), codeRanges };
    },
    crlf: (flags & 1) !== 0,
    bom: (flags & 2) !== 0,
  };
}

export function isRow(v: unknown): v is Row {
  return Array.isArray(v) && v.length === 9 && typeof v[0] === 'string' && typeof v[1] === 'string' && (v[2] === 0 || (Array.isArray(v[2]) && v[2].length === 7))
    && Array.isArray(v[3]) && v[3].length === 6 && Array.isArray(v[4]) && v[4].length % 9 === 0 && Array.isArray(v[5]) && v[5].length % 2 === 0
    && typeof v[6] === 'object' && v[6] !== null && typeof v[7] === 'number' && (v[8] === 0 || (Array.isArray(v[8]) && v[8].length === 5));
}
