/**
 * `check --cache`: VAULT/.memlint/cache/check-v1.jsonl. Keyed by content: a record is used only when
 * the sha1 of the file's bytes, its role, the memlint version and the whole config are those it was
 * made with; a file whose size, mtime, ctime and inode are those it was hashed with (and old enough
 * not to be racy) is taken as unchanged without being read, as git's index does. A record holds
 * the parse (front matter offsets and findings, metadata, links, code ranges) and the findings of
 * the file rules (rules whose findings depend on one file only). Rules that look across files run
 * whenever anything in the vault changed (the vault line, below). A corrupt or foreign cache file is ignored
 * and rewritten.
 *
 * Layout: a JSON header line, the vault line, then one line per file: its path as a JSON string, a tab, and
 * the record (check-cache-row.ts `parseRow`: the cells the stat fast path reads, then JSON cells decoded only
 * when a run needs them). Lines of unchanged files are written back as they were read.
 *
 * The vault line, second (`*` TAB key TAB fast TAB findings JSON, UTF-8; its byte length, and that of the part
 * before the findings, are in the header): the findings
 * of every rule that reads nothing but the vault and the config (all but those marked `readsOutsideVault`),
 * as the last run made them, keyed by everything they can depend on (`vaultKey`: the vault's shape, kind and
 * skipped files, and every file's digest; the header holds the version and the config). While the key is the
 * same, those rules are not run: their answer is the one remembered. The fast part (check-cache-vault.ts)
 * answers an unchanged vault from this line alone, before the vault is built. Rules that read outside the
 * vault (the project, context files) run every time.
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { statFile, type StatFields } from '../util/file-stat.js';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { FileFindingsCache } from '../rules/engine.js';
import type { Finding } from '../rules/types.js';
import { count } from '../util/counters.js';
import { sha1Base64 } from '../util/digest.js';
import { trustedBefore, writeCacheFile } from '../util/cache-dir.js';
import type { FileRole, FileStat, Link, ParseCache, ParseRecord, Vault, VaultFile, VaultKind } from '../vault/model.js';
import {
  configKey,
  decodeLinks,
  decodeParse,
  encodeFile,
  isTrusted,
  keyOf,
  parseRow,
  Part,
  sameLinks,
  type Row,
} from './check-cache-row.js';
import { CACHE_KEY } from '../version.js';
import { fastAnswer, HASHED, keyOfDiscovery, statCell, type FastInputs, type FastResult } from './check-cache-vault.js';

export const CHECK_CACHE_FILE = join('.memlint', 'cache', 'check-v1.jsonl');
// 2: a link's suggestion may be -1 (did-you-mean never asked for it, check-cache-row.ts): a reader of format 1 would take it for a stem.
// 3: rows are objects with named fields (check-cache-row.ts `Row`), no longer positional arrays.
// 4: a row's cells are tab-separated, the JSON ones decoded on first use; the vault line.
const MAGIC = 'memlint-check-cache-4';
/** The first cell of the vault line (a file's key is a JSON string: it starts with a quote). */
const VAULT_LINE = '*';

interface Header {
  magic: string;
  version: string;
  config: string;
  kind: string;
  shape: string;
  /** The length in bytes (UTF-8) of the vault line (the second), 0 without one. */
  vaultLine?: number;
  /** The length in bytes of the vault line up to its findings cell. */
  vaultFast?: number;
}

/** A row as read: the record after the key, and where the whole line lies in the rows' bytes (-1 when not ASCII). */
interface RawLine {
  readonly line: string;
  readonly from: number;
  readonly to: number;
}

interface Entry {
  /** The path as a JSON string, ASCII only (`keyOf`): the line's first cell. */
  readonly key: string;
  /** The record as read from disk (after its key), until parsed. */
  line: string | null;
  /**
   * Where the whole line (key, tab, record, and its newline when it has one) lies in the rows as read, -1 when
   * they were not ASCII (then the line is encoded again): an unchanged line is written back as those bytes.
   */
  readonly from: number;
  readonly to: number;
  row: Row | null;
  /** sha1 of the bytes in this run (read now, or unchanged since the record). */
  digest?: string;
  stat?: FileStat;
  /** Parsed now (or its recorded findings did not read): the file rules' findings must be computed. */
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

const isFindingList = (v: unknown): v is Finding[] => Array.isArray(v);

export class CheckCache implements ParseCache {
  /** By path as a JSON string (how lines are keyed on disk). */
  private readonly entries = new Map<string, Entry>();
  /** The entries of files read in this run, by path. */
  private readonly seen = new Map<string, Entry>();
  private readonly file: string;
  private readonly header: Header;
  private readonly stale: boolean;
  private readonly linesRead: number;
  /** The rows as read (after the vault line), when ASCII: the bytes unchanged lines are copied from. */
  private readonly rowBytes: Buffer | null;
  private readonly trustStat: boolean;
  private kindMatches = false;
  private readonly trustedBefore: number;
  /** The vault line as read (after its `*`), and its key and findings (decoded only on a hit). */
  private readonly vaultRead: {
    readonly line: string;
    readonly key: string;
    readonly findings: Part<Finding[]>;
  } | null;
  /** The vault line to write: the key, the fast part and the findings as JSON (those read, while they hold). */
  private vaultNow: { readonly key: string; readonly fast: string; readonly json: string } | null = null;
  /** The closed rules were answered from the vault line: no file rule ran in this run. */
  private fileRulesSkipped = false;
  /**
   * Files answered from the cache in this run: without reading them, and after reading and hashing them;
   * `vault` 1 when the closed rules' findings were the remembered ones.
   */
  readonly hits = { unchanged: 0, sameBytes: 0, vault: 0 };

  private constructor(
    file: string,
    header: Header,
    lines: Map<string, RawLine>,
    vaultLine: string | null,
    stale: boolean,
    options: CheckCacheOptions,
    rowBytes: Buffer | null = null,
  ) {
    this.trustStat = (options.strategy ?? 'stat') === 'stat';
    // A record's stat is trusted only for a file last changed a margin before it was read (racy clean):
    // a file changed within it is read and hashed again on the next run.
    this.trustedBefore = trustedBefore(options.racyMarginMs);
    this.file = file;
    this.header = header;
    this.stale = stale;
    this.linesRead = lines.size;
    this.rowBytes = rowBytes;
    for (const [key, { line, from, to }] of lines)
      this.entries.set(key, { key, line, from, to, row: null, fresh: false, rewrite: false });
    const cells = vaultLine === null ? [] : vaultLine.split('\t');
    this.vaultRead =
      vaultLine !== null && cells.length === 3
        ? { line: vaultLine, key: cells[0]!, findings: new Part(cells[2]!, isFindingList) }
        : null;
  }

  /**
   * The answer remembered for an unchanged vault (check-cache-vault.ts), found without building the vault, or
   * undefined. `kindOption`: the kind the run is told (`--kind`), null when it finds it.
   */
  static fast(
    vaultRoot: string,
    config: Config,
    kindOption: VaultKind | null,
    options: CheckCacheOptions = {},
  ): FastResult {
    if ((options.strategy ?? 'stat') !== 'stat') return {};
    const file = options.location ?? join(vaultRoot, CHECK_CACHE_FILE);
    return fastAnswer(
      file,
      { magic: MAGIC, version: CACHE_KEY, config: configKey(config) },
      vaultRoot,
      config,
      kindOption,
    );
  }

  static open(vaultRoot: string, config: Config, options: CheckCacheOptions = {}): CheckCache {
    const file = options.location ?? join(vaultRoot, CHECK_CACHE_FILE);
    const header: Header = { magic: MAGIC, version: CACHE_KEY, config: configKey(config), kind: '', shape: '' };
    const lines = new Map<string, RawLine>();
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return new CheckCache(file, header, lines, null, true, options);
    }
    const firstBreak = bytes.indexOf(10);
    let old: Partial<Header> = {};
    try {
      old = JSON.parse(bytes.toString('utf8', 0, firstBreak === -1 ? bytes.length : firstBreak)) as Partial<Header>;
    } catch {
      /* corrupt: rebuilt */
    }
    if (old.magic !== MAGIC || old.version !== CACHE_KEY || old.config !== header.config || firstBreak === -1)
      return new CheckCache(file, header, lines, null, true, options);
    header.kind = typeof old.kind === 'string' ? old.kind : '';
    header.shape = typeof old.shape === 'string' ? old.shape : '';
    // The vault line is UTF-8 (`vaultLine` bytes, after the header); the rows after it are ASCII (one byte a
    // character in memory, which a single non-ASCII character anywhere in the same string would double).
    const lineBytes = typeof old.vaultLine === 'number' && Number.isInteger(old.vaultLine) ? old.vaultLine : 0;
    const rowsAt = lineBytes > 0 ? firstBreak + 1 + lineBytes + 1 : firstBreak + 1;
    const line = lineBytes > 0 ? bytes.toString('utf8', firstBreak + 1, rowsAt - 1) : '';
    let vaultLine: string | null = line.startsWith(`${VAULT_LINE}\t`) ? line.slice(VAULT_LINE.length + 1) : null;
    // Rows are written ASCII: then latin1 is the same decoding, a copy (a foreign file is decoded as UTF-8).
    const rows = bytes.subarray(Math.min(rowsAt, bytes.length));
    const ascii = isAscii(rows);
    const text = rows.toString(ascii ? 'latin1' : 'utf8');
    let at = 0;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      const tab = text.indexOf('\t', at);
      if (tab !== -1 && tab < end) {
        const key = text.slice(at, tab);
        if (key === VAULT_LINE)
          vaultLine = null; // one where rows are: not written by this format, not trusted
        else
          lines.set(key, {
            line: text.slice(tab + 1, end),
            // ASCII: a character is a byte, so string offsets are byte offsets in `rows`.
            from: ascii ? at : -1,
            to: ascii ? Math.min(end + 1, text.length) : -1,
          });
      }
      at = end + 1;
    }
    return new CheckCache(file, header, lines, vaultLine, false, options, ascii ? rows : null);
  }

  private entry(path: string): Entry {
    let e = this.seen.get(path);
    if (e) return e;
    const key = keyOf(path);
    e = this.entries.get(key);
    if (!e) {
      e = { key, line: null, from: -1, to: -1, row: null, fresh: false, rewrite: false };
      this.entries.set(key, e);
    }
    this.seen.set(path, e);
    return e;
  }

  private row(e: Entry): Row | null {
    if (e.row === null && e.line !== null) {
      e.row = parseRow(e.line);
      if (e.row === null) e.line = null;
    }
    return e.row;
  }

  /** The row's parse, or undefined (and the row dropped) when its head does not read. */
  private record(e: Entry, row: Row): ParseRecord | undefined {
    const record = decodeParse(row);
    if (!record) {
      e.row = null;
      e.line = null;
    }
    return record;
  }

  unchanged(path: string, absPath: string, role: FileRole): { record: ParseRecord; stat: FileStat } | undefined {
    const e = this.entry(path);
    const row = this.row(e);
    const was = row?.stat;
    if (!this.trustStat || !row || row.role !== role || !was) return undefined;
    const st = this.prefetched?.get(absPath) ?? statFile(absPath);
    if (!st || st.size !== was.size || st.mtimeMs !== was.mtimeMs || st.ctimeMs !== was.ctimeMs || st.ino !== was.ino)
      return undefined;
    const record = this.record(e, row);
    if (!record) return undefined;
    e.digest = row.digest;
    e.stat = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode, ctimeMs: st.ctimeMs, ino: st.ino };
    this.hits.unchanged++;
    return { record, stat: e.stat };
  }

  reuse(path: string, role: FileRole, bytes: Uint8Array, stat: FileStat): ParseRecord | undefined {
    const e = this.entry(path);
    e.digest = sha1Base64(bytes);
    e.stat = stat;
    const row = this.row(e);
    const record = row && row.role === role && row.digest === e.digest ? this.record(e, row) : undefined;
    if (row && record) {
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
      return record;
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
  /** Stats the fast part took a moment ago in this run (`CheckCache.fast`), by absolute path. */
  private prefetched: ReadonlyMap<string, StatFields> | undefined;

  /** Use these stats (taken in this run, by absolute path) instead of taking them again. */
  useStats(stats: ReadonlyMap<string, StatFields> | undefined): void {
    this.prefetched = stats;
  }

  useShape(shape: string): void {
    this.shapeMatches = this.header.shape === shape;
    this.header.shape = shape;
  }

  resolvedLinks(
    path: string,
    suggest: (link: Pick<Link, 'kind' | 'target'>) => () => string | null,
  ): (() => readonly Link[] | undefined) | undefined {
    const e = this.seen.get(path);
    const row = e && !e.fresh ? e.row : null;
    if (!this.shapeMatches || !row) return undefined;
    return () => {
      const flat = row.links.get();
      return flat ? Object.freeze(decodeLinks(flat, suggest)) : undefined;
    };
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
        if (!e || e.fresh) return undefined;
        const recorded = e.row?.findings.get();
        if (recorded) return recorded[ruleId] ?? [];
        // The recorded findings do not read: this file's file rules run now, and are recorded again.
        e.fresh = true;
        e.rewrite = true;
        e.findings = {};
        return undefined;
      },
      set: (file, ruleId, findings) => {
        const e = known(file);
        if (e?.fresh && findings.length > 0) (e.findings ??= {})[ruleId] = [...findings];
      },
    };
  }

  /**
   * Everything the closed rules' findings can depend on besides the version and the config (the header's):
   * the shape (root, every file's path and role, notes' names, the other files), the kind, the skipped
   * files, and every file's digest; a file with a decoding problem by its text and its problem.
   */
  private vaultKey(vault: Vault): string {
    const parts: string[] = [this.header.shape, vault.kind, JSON.stringify(vault.skipped)];
    for (const f of vault.files) {
      const e = f.problem === null ? this.seen.get(f.path) : undefined;
      parts.push(f.path, e?.digest ?? `${sha1Base64(f.bytes)} ${sha1Base64(f.text)} ${JSON.stringify(f.problem)}`);
    }
    return sha1Base64(parts.join('\u0000'));
  }

  /**
   * The findings the closed rules (every rule but those that read outside the vault) made in the last run, if
   * everything they read is as it was then; else undefined (run them, then `rememberVault`).
   */
  vaultFindings(vault: Vault, inputs?: FastInputs): readonly Finding[] | undefined {
    if (this.stale || !this.vaultRead) return undefined;
    const key = this.vaultKey(vault);
    if (key !== this.vaultRead.key) return undefined;
    const findings = this.vaultRead.findings.get();
    if (!findings) return undefined;
    this.vaultNow = { key, fast: this.fastPart(vault, inputs), json: this.vaultRead.findings.raw() };
    this.fileRulesSkipped = true;
    this.hits.vault = 1;
    count('check.cache.vaultLine');
    return findings;
  }

  /** The closed rules' findings of this run (they ran: `vaultFindings` gave nothing), for the next. */
  rememberVault(vault: Vault, findings: readonly Finding[], inputs?: FastInputs): void {
    this.vaultNow = { key: this.vaultKey(vault), fast: this.fastPart(vault, inputs), json: JSON.stringify(findings) };
  }

  /** The fast part for this vault, or `-` while any file's stat is unknown or too recent to trust. */
  private fastPart(vault: Vault, inputs: FastInputs | undefined): string {
    if (!inputs || !this.trustStat) return '-';
    const files: string[] = [];
    for (const f of vault.files) {
      const e = this.seen.get(f.path);
      const st = e?.stat;
      if (!st || e.digest === undefined) return '-';
      // A stat too recent to trust (racy clean): the next run reads and hashes that file instead.
      files.push(f.path, isTrusted(st, this.trustedBefore) ? statCell(st) : `${HASHED}${e.digest}`);
    }
    return JSON.stringify({
      root: vault.root,
      kindOption: inputs.kindOption,
      kind: vault.kind,
      found: keyOfDiscovery(inputs.found),
      files,
      notes: inputs.notes,
      indexInfo: vault.indexInfo,
    });
  }

  /** Writes the cache for the files of this vault, unless nothing changed. Never throws. */
  save(vault: Vault): void {
    const written = new Set<Entry>();
    let unchangedLines = 0;
    const vaultLine = this.vaultNow && `${this.vaultNow.key}\t${this.vaultNow.fast}\t${this.vaultNow.json}`;
    let changed = this.stale || !this.kindMatches || !this.shapeMatches || vaultLine !== (this.vaultRead?.line ?? null);
    // The rows, in order: a line encoded now, or a run of unchanged lines copied as read (adjacent ones, as
    // they are in the file, make one slice: a 10k-note vault with one note edited writes a few slices, not 45 MB
    // of strings joined and encoded again).
    const out: (string | Buffer)[] = [];
    const rows = this.rowBytes;
    let runFrom = -1;
    let runTo = -1;
    const endRun = (): void => {
      if (runFrom === -1) return;
      out.push(rows!.subarray(runFrom, runTo));
      if (rows![runTo - 1] !== 10) out.push('\n'); // the file's last line, read without its newline
      runFrom = runTo = -1;
    };
    for (const f of vault.files) {
      const e = this.seen.get(f.path);
      if (!e || e.digest === undefined || f.problem !== null || written.has(e)) continue;
      written.add(e);
      if (e.rewrite || (!this.shapeMatches && !sameLinks(e.row, f.links))) {
        changed = true;
        // A file parsed now while the file rules did not run (the vault line answered) has no findings to
        // record: `null` reads as unknown, and the next run that runs the file rules runs them on it.
        const findings = e.fresh
          ? this.fileRulesSkipped
            ? 'null'
            : (e.findings ?? {})
          : (e.findings ?? e.row?.findings.raw() ?? 'null');
        endRun();
        out.push(`${e.key}\t${encodeFile(f, e.digest, e.stat, findings, this.trustedBefore)}\n`);
      } else if (e.line !== null) {
        unchangedLines++;
        if (rows && e.from !== -1) {
          if (runFrom !== -1 && e.from === runTo && rows[runTo - 1] === 10) runTo = e.to;
          else {
            endRun();
            runFrom = e.from;
            runTo = e.to;
          }
        } else {
          endRun();
          out.push(`${e.key}\t${e.line}\n`);
        }
      }
    }
    endRun();
    // A file gone since the last run leaves a line behind that is not written again.
    if (unchangedLines !== this.linesRead) changed = true;
    if (!changed) return;
    const head: string[] = [];
    if (vaultLine !== null) {
      const v = this.vaultNow!;
      const prefix = `${VAULT_LINE}\t${v.key}\t${v.fast}\t`;
      const line = `${prefix}${v.json}`;
      // The fast part reads the line up to its findings (`vaultFast` bytes), and those only when they answer.
      head.push(
        JSON.stringify({ ...this.header, vaultLine: Buffer.byteLength(line), vaultFast: Buffer.byteLength(prefix) }),
        line,
      );
    } else head.push(JSON.stringify({ ...this.header, vaultLine: 0 }));
    try {
      // Two strings, not one: the ASCII rows stay a one-byte string however the vault line is written.
      const parts: Uint8Array[] = [Buffer.from(`${head.join('\n')}\n`, 'utf8')];
      // Strings between slices joined first: encoded in few calls, and ASCII rows stay one-byte strings.
      let pending: string[] = [];
      const flush = (): void => {
        if (pending.length) parts.push(Buffer.from(pending.join(''), 'utf8'));
        pending = [];
      };
      for (const o of out) {
        if (typeof o === 'string') pending.push(o);
        else {
          flush();
          parts.push(o);
        }
      }
      flush();
      writeCacheFile(this.file, Buffer.concat(parts));
    } catch {
      // A read-only vault still gets its check; the next run simply has no cache.
    }
  }
}
