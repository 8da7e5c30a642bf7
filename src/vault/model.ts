/** The vault model: loaded once, frozen, read by every rule, stage and command. */
import type { Config } from '../config/schema.js';
import type { Frontmatter, FrontmatterRecord } from './frontmatter.js';
import type { LinkKind, ScanResult } from './scan.js';
import type { DecodeProblem, Position } from './decode.js';

export type VaultKind = 'claude' | 'hermes';
export type FileRole = 'note' | 'index' | 'catalog' | 'secondary-index' | 'hermes-store';

export interface NoteMeta {
  readonly name: string | null;
  readonly description: string | null;
  readonly type: string | null;
  /** `metadata.modified`, else a top-level `modified`. */
  readonly modified: string | null;
  /** `metadata.originSessionId`, else a top-level `originSessionId`. */
  readonly origin: string | null;
  /** Which of the three real-world shapes the front matter has. */
  readonly shape: 'flat' | 'nested-metadata' | 'flat-with-origin' | 'none';
}

export type Resolution =
  | 'path' // a markdown link or mention to an existing file
  | 'stem' // a wikilink matching a file stem
  | 'name' // a wikilink matching a note's `name`
  | 'folded' // a wikilink matching only after folding case and -/_
  | 'missing'
  | 'outside' // climbs out of the vault: cannot be verified
  | 'external' // a URL or an anchor
  | 'not-markdown'; // a link to a file that is not markdown

export interface Link {
  readonly kind: LinkKind;
  readonly target: string;
  readonly offset: number;
  readonly length: number;
  readonly line: number;
  readonly column: number;
  /** Vault-relative path of the file it points to, when it points to one in the vault. */
  readonly resolved: string | null;
  readonly resolution: Resolution;
  /** For a missing wikilink: the closest existing stem or name. */
  readonly suggestion: string | null;
}

export interface VaultFile {
  /** Vault-relative, `/`-separated. */
  readonly path: string;
  readonly absPath: string;
  readonly role: FileRole;
  /** File name without `.md`. */
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
  readonly links: readonly Link[];
  readonly codeRanges: readonly (readonly [number, number])[];
  /** 1-based line/column of an offset in `text` (front matter included). */
  position(offset: number): Position;
  lineCount(): number;
}

/** A file name without `.md` (any case): `VaultFile.stem`, what a wikilink names. */
export function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.toLowerCase().endsWith('.md') ? base.slice(0, -3) : base;
}

/**
 * A file read and parsed, its links not yet resolved: a VaultFile without links and code ranges, with the
 * scan that finds them (`makeVaultFile` in file.ts turns one into the other).
 */
export type ParsedFile = Omit<VaultFile, 'links' | 'codeRanges'> & {
  readonly scan: ScanResult;
  /** Reused from `check --cache`: `text` is a getter that decodes on first read. */
  readonly reused?: true;
  /**
   * The bytes are exactly the text's UTF-8 and need not be kept: the VaultFile made of it encodes them again on
   * first read (`check` reads no file's bytes after parsing; `LoadOptions.keepBytes` false).
   */
  readonly encoded?: true;
};

export interface FileStat {
  size: number;
  mtimeMs: number;
  mode: number;
  /** Known for files read from disk: what `check --cache` compares before trusting a record. */
  ctimeMs?: number;
  ino?: number;
}

/** What a parse cache keeps of one file: everything derived from its bytes except the text. */
export interface ParseRecord {
  readonly frontmatter: FrontmatterRecord | null;
  readonly meta: NoteMeta;
  /**
   * Decoded on first use: a file whose links come resolved from the cache never needs it. `text`: the file's
   * text, for a record that can no longer give its scan (the cache's cell did not read): scanned as a fresh parse is.
   */
  scan(text: () => string): ScanResult;
  readonly crlf: boolean;
  readonly bom: boolean;
}

/**
 * `check --cache`: hands back the parse of exactly these bytes in this role from an earlier run,
 * and keeps the parses made now.
 */
export interface ParseCache {
  /** Before reading: the record of a file whose size, mtime, ctime and inode are those it was hashed with. */
  unchanged(
    path: string,
    absPath: string,
    role: FileRole,
  ): { readonly record: ParseRecord; readonly stat: FileStat } | undefined;
  /** After reading: the record of exactly these bytes in this role. */
  reuse(path: string, role: FileRole, bytes: Uint8Array, stat: FileStat): ParseRecord | undefined;
  /** These bytes were parsed now: the cache records the file as the vault holds it. */
  keep(path: string): void;
  /** The vault's shape now (paths, roles, names, other files): links resolve against it. */
  useShape(shape: string): void;
  /**
   * A reused file's links as resolved in the last run, if the vault had the same shape then: decoded when the
   * returned function is called (undefined then: the record could not give them, resolve them again).
   */
  resolvedLinks(
    path: string,
    suggest: (link: Pick<Link, 'kind' | 'target'>) => () => string | null,
  ): (() => readonly Link[] | undefined) | undefined;
}

export interface IndexEntry {
  readonly line: number;
  readonly text: string;
  /** The note the line links (vault-relative), the unresolved target, or null. */
  readonly target: string | null;
}

export interface IndexInfo {
  readonly file: string;
  readonly lines: number;
  readonly bytes: number;
  readonly maxLines: number;
  readonly maxBytes: number;
  /** The unit of `bytes`/`maxBytes`: UTF-16 code units (Claude Code's `.length`) or UTF-8 bytes. */
  readonly measure: 'utf16' | 'utf8';
  /** Lines of the trimmed text the harness loads whole (`lines` counts the trimmed text too). */
  readonly loadedLines: number;
  /** Whether the harness cuts anything. */
  readonly truncated: boolean;
  /** File line of the first line not loaded whole, or null. */
  readonly cutLine: number | null;
  readonly entries: readonly IndexEntry[];
  readonly lostEntries: readonly IndexEntry[];
}

export type SkipReason =
  'symlink-outside' | 'symlink-broken' | 'symlink-duplicate' | 'unreadable' | 'ignored' | 'bad-name';

export interface SkippedEntry {
  readonly path: string;
  readonly reason: SkipReason;
  readonly detail: string;
}

export interface HermesEntry {
  /** 1-based entry number, as Hermes counts them (empty entries dropped). */
  readonly index: number;
  /** The entry stripped of surrounding white space, as Hermes stores it. */
  readonly text: string;
  readonly offset: number;
  readonly line: number;
  readonly sha256: string;
}

export interface HermesStore {
  readonly file: string;
  /** Hermes' `_char_count`: code points of the loaded (deduplicated) entries joined by "\n§\n". */
  readonly chars: number;
  readonly maxChars: number;
  /** Every non-empty entry in file order, duplicates included (entry numbers address these). */
  readonly entries: readonly HermesEntry[];
  /** How many entries Hermes holds after loading (duplicates dropped). */
  readonly loadedEntries: number;
}

export interface Vault {
  readonly root: string;
  readonly kind: VaultKind;
  readonly config: Config;
  /** Every markdown file read, sorted by path. */
  readonly files: readonly VaultFile[];
  readonly notes: readonly VaultFile[];
  readonly index: VaultFile | null;
  readonly indexInfo: IndexInfo | null;
  readonly catalog: VaultFile | null;
  readonly secondaryIndexes: readonly VaultFile[];
  readonly stores: readonly HermesStore[];
  readonly skipped: readonly SkippedEntry[];
  readonly byPath: ReadonlyMap<string, VaultFile>;
  /** Every other file that exists in the vault (non-markdown, ignored markdown): valid link targets. */
  readonly otherFiles: ReadonlySet<string>;
}
