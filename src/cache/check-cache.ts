/**
 * `check --cache`: VAULT/.memlint/cache/check-v1.jsonl. Keyed by content: a record is used only when
 * the sha1 of the file's bytes, its role, the memlint version and the whole config are those it was
 * made with; a file whose size, mtime, ctime and inode are those it was hashed with (and old enough
 * not to be racy) is taken as unchanged without being read, as git's index does. A record holds
 * the parse (front matter offsets and findings, metadata, links, code ranges) and the findings of
 * the file rules (rules whose findings depend on one file only). Rules that look across files run
 * every time. A corrupt or foreign cache file is ignored and rewritten.
 *
 * Layout: a JSON header line, then one line per file: its path as a JSON string, a tab, and the
 * record as JSON. Lines of unchanged files are written back as they were read.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { FileFindingsCache } from '../rules/engine.js';
import type { Finding } from '../rules/types.js';
import { sha1Base64 } from '../util/digest.js';
import { trustedBefore, writeCacheFile } from '../util/cache-dir.js';
import type { FileRole, FileStat, Link, ParseCache, ParseRecord, Vault, VaultFile } from '../vault/model.js';
import {
  asciiOnly,
  configKey,
  decodeLinks,
  decodeParse,
  encodeFile,
  isRow,
  isTrusted,
  keyOf,
  sameLinks,
  type Row,
} from './check-cache-row.js';
import { CACHE_KEY } from '../version.js';

export const CHECK_CACHE_FILE = join('.memlint', 'cache', 'check-v1.jsonl');
// 2: a link's suggestion may be -1 (did-you-mean never asked for it, check-cache-row.ts): a reader of format 1 would take it for a stem.
// 3: rows are objects with named fields (check-cache-row.ts `Row`), no longer positional arrays.
const MAGIC = 'memlint-check-cache-3';

interface Header {
  magic: string;
  version: string;
  config: string;
  kind: string;
  shape: string;
}

interface Entry {
  /** The record as read from disk, until parsed. */
  line: string | null;
  row: Row | null;
  /** sha1 of the bytes in this run (read now, or unchanged since the record). */
  digest?: string;
  stat?: FileStat;
  /** Parsed now: the file rules' findings must be computed. */
  fresh: boolean;
  /** The line must be written again (fresh, or same bytes with a new stat). */
  rewrite: boolean;
  findings?: Record<string, Finding[]>;
}

export type CacheStrategy = 'stat' | 'content';

export interface CheckCacheOptions {
  /** Where the cache file is; default VAULT/.memlint/cache/check-v1.jsonl. */
  readonly location?: string;
  /**
   * 'stat' (default): a file whose size, mtime, ctime and inode are those it was hashed with is not
   * read again. 'content': every file is read and hashed (for file systems whose times cannot be trusted).
   */
  readonly strategy?: CacheStrategy;
  /** How long before a read a file must have last changed for its stat to be trusted (default 2,000 ms). */
  readonly racyMarginMs?: number;
}

export class CheckCache implements ParseCache {
  /** By path as a JSON string (how lines are keyed on disk). */
  private readonly entries = new Map<string, Entry>();
  /** The entries of files read in this run, by path. */
  private readonly seen = new Map<string, Entry>();
  private readonly file: string;
  private readonly header: Header;
  private readonly stale: boolean;
  private readonly linesRead: number;
  private readonly trustStat: boolean;
  private kindMatches = false;
  private readonly trustedBefore: number;
  /** Files answered from the cache in this run: without reading them, and after reading and hashing them. */
  readonly hits = { unchanged: 0, sameBytes: 0 };

  private constructor(
    file: string,
    header: Header,
    lines: Map<string, string>,
    stale: boolean,
    options: CheckCacheOptions,
  ) {
    this.trustStat = (options.strategy ?? 'stat') === 'stat';
    // A record's stat is trusted only for a file last changed a margin before it was read (racy clean):
    // a file changed within it is read and hashed again on the next run.
    this.trustedBefore = trustedBefore(options.racyMarginMs);
    this.file = file;
    this.header = header;
    this.stale = stale;
    this.linesRead = lines.size;
    for (const [key, line] of lines) this.entries.set(key, { line, row: null, fresh: false, rewrite: false });
  }

  static open(vaultRoot: string, config: Config, options: CheckCacheOptions = {}): CheckCache {
    const file = options.location ?? join(vaultRoot, CHECK_CACHE_FILE);
    const header: Header = { magic: MAGIC, version: CACHE_KEY, config: configKey(config), kind: '', shape: '' };
    const lines = new Map<string, string>();
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return new CheckCache(file, header, lines, true, options);
    }
    const firstBreak = text.indexOf('\n');
    let old: Partial<Header> = {};
    try {
      old = JSON.parse(text.slice(0, firstBreak === -1 ? text.length : firstBreak)) as Partial<Header>;
    } catch {
      /* corrupt: rebuilt */
    }
    if (old.magic !== MAGIC || old.version !== CACHE_KEY || old.config !== header.config || firstBreak === -1)
      return new CheckCache(file, header, lines, true, options);
    header.kind = typeof old.kind === 'string' ? old.kind : '';
    header.shape = typeof old.shape === 'string' ? old.shape : '';
    let at = firstBreak + 1;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      const tab = text.indexOf('\t', at);
      if (tab !== -1 && tab < end) lines.set(text.slice(at, tab), text.slice(tab + 1, end));
      at = end + 1;
    }
    return new CheckCache(file, header, lines, false, options);
  }

  private entry(path: string): Entry {
    let e = this.seen.get(path);
    if (e) return e;
    const key = keyOf(path);
    e = this.entries.get(key);
    if (!e) {
      e = { line: null, row: null, fresh: false, rewrite: false };
      this.entries.set(key, e);
    }
    this.seen.set(path, e);
    return e;
  }

  private row(e: Entry): Row | null {
    if (e.row === null && e.line !== null) {
      try {
        const v: unknown = JSON.parse(e.line);
        if (isRow(v)) e.row = v;
      } catch {
        /* a corrupt line is a miss */
      }
      if (e.row === null) e.line = null;
    }
    return e.row;
  }

  unchanged(path: string, absPath: string, role: FileRole): { record: ParseRecord; stat: FileStat } | undefined {
    const e = this.entry(path);
    const row = this.row(e);
    const was = row?.stat;
    if (!this.trustStat || !row || row.role !== role || !was) return undefined;
    const st = statSync(absPath, { throwIfNoEntry: false });
    if (!st || st.size !== was.size || st.mtimeMs !== was.mtimeMs || st.ctimeMs !== was.ctimeMs || st.ino !== was.ino)
      return undefined;
    e.digest = row.digest;
    e.stat = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode, ctimeMs: st.ctimeMs, ino: st.ino };
    this.hits.unchanged++;
    return { record: decodeParse(row), stat: e.stat };
  }

  reuse(path: string, role: FileRole, bytes: Uint8Array, stat: FileStat): ParseRecord | undefined {
    const e = this.entry(path);
    e.digest = sha1Base64(bytes);
    e.stat = stat;
    const row = this.row(e);
    if (row && row.role === role && row.digest === e.digest) {
      this.hits.sameBytes++;
      // Same bytes: the line is written again only to record a new stat (touched, checked out
      // again) or one that has become old enough to trust.
      const was = row.stat;
      const sameStat =
        was !== null &&
        was.size === stat.size &&
        was.mtimeMs === stat.mtimeMs &&
        was.ctimeMs === stat.ctimeMs &&
        was.ino === stat.ino &&
        was.mode === stat.mode;
      if (!sameStat && (was !== null || this.trusted(stat))) e.rewrite = true;
      return decodeParse(row);
    }
    e.row = null;
    e.line = null;
    e.fresh = true;
    e.rewrite = true;
    return undefined;
  }

  private trusted(stat: FileStat): boolean {
    return isTrusted(stat, this.trustedBefore);
  }

  keep(path: string): void {
    const e = this.entry(path);
    e.fresh = true;
    e.rewrite = true;
    e.findings = {};
  }

  private shapeMatches = false;

  useShape(shape: string): void {
    this.shapeMatches = this.header.shape === shape;
    this.header.shape = shape;
  }

  resolvedLinks(
    path: string,
    suggest: (link: Pick<Link, 'kind' | 'target'>) => () => string | null,
  ): readonly Link[] | undefined {
    const e = this.seen.get(path);
    const row = e && !e.fresh ? e.row : null;
    return this.shapeMatches && row ? Object.freeze(decodeLinks(row.links, suggest)) : undefined;
  }

  /** Findings of file rules, for this vault: answered only when the vault's kind is the one cached. */
  findingsFor(vault: Vault): FileFindingsCache {
    this.kindMatches = this.header.kind === vault.kind;
    this.header.kind = vault.kind;
    if (!this.kindMatches) {
      for (const e of this.seen.values()) {
        e.fresh = true;
        e.rewrite = true;
        e.findings = {};
      }
    }
    const known = (file: VaultFile): Entry | undefined => {
      const e = file.problem === null ? this.seen.get(file.path) : undefined;
      return e?.digest !== undefined ? e : undefined;
    };
    return {
      get: (file, ruleId) => {
        const e = known(file);
        return e && !e.fresh ? (e.row?.findings[ruleId] ?? []) : undefined;
      },
      set: (file, ruleId, findings) => {
        const e = known(file);
        if (e?.fresh && findings.length > 0) (e.findings ??= {})[ruleId] = [...findings];
      },
    };
  }

  /** Writes the cache for the files of this vault, unless nothing changed. Never throws. */
  save(vault: Vault): void {
    const written = new Set<Entry>();
    let unchangedLines = 0;
    let changed = this.stale || !this.kindMatches || !this.shapeMatches;
    const out: string[] = [JSON.stringify(this.header)];
    for (const f of vault.files) {
      const e = this.seen.get(f.path);
      if (!e || e.digest === undefined || f.problem !== null || written.has(e)) continue;
      written.add(e);
      if (e.rewrite || (!this.shapeMatches && !sameLinks(e.row, f.links))) {
        changed = true;
        const findings = (e.fresh ? e.findings : (e.findings ?? e.row?.findings)) ?? {};
        out.push(
          `${keyOf(f.path)}\t${asciiOnly(JSON.stringify(encodeFile(f, e.digest, e.stat, findings, this.trustedBefore)))}`,
        );
      } else if (e.line !== null) {
        unchangedLines++;
        out.push(`${keyOf(f.path)}\t${e.line}`);
      }
    }
    // A file gone since the last run leaves a line behind that is not written again.
    if (unchangedLines !== this.linesRead) changed = true;
    if (!changed) return;
    try {
      writeCacheFile(this.file, `${out.join('\n')}\n`);
    } catch {
      // A read-only vault still gets its check; the next run simply has no cache.
    }
  }
}
