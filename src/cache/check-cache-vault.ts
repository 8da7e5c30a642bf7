/**
 * The vault line's fast part (check-cache.ts): what lets `check --cache` answer an unchanged vault from the
 * line alone, without reading the rest of the cache file or building the vault: the root, the kind (and the
 * `--kind` it was given), a digest of what discovery found (every markdown path, how it was reached, the
 * other files, the skipped ones), and every file's stat, each trusted when recorded (old enough not to be
 * racy, as for a row) — or, for a file changed too recently to trust its stat, its digest (that file is read
 * and hashed). A run that finds all of them the same (one `discover` and one `stat` per file) has the
 * same files with the same bytes, under the same version and config (the header's), so the same vault: the
 * closed rules' findings, the number of notes and the index figures recorded with it are its answer.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { Finding } from '../rules/types.js';
import { count } from '../util/counters.js';
import { sha1Base64 } from '../util/digest.js';
import { discover, type Discovery } from '../vault/discover.js';
import type { FileStat, IndexInfo, VaultKind } from '../vault/model.js';
import { statFile, type StatFields } from '../util/file-stat.js';
import { roleClassifier } from '../vault/roles.js';
import type { Config } from '../config/schema.js';
import { Part } from './check-cache-row.js';

/** What the fast part records, as JSON. */
export interface FastRecord {
  readonly root: string;
  /** The kind the run was told (`--kind`), or null when it was found (config `kind` is in the config). */
  readonly kindOption: VaultKind | null;
  readonly kind: VaultKind;
  /** `discoveryKey` of what discovery found. */
  readonly found: string;
  /** Path, stat cell (or HASHED + digest), path, stat cell… of every file the vault read, in its order. */
  readonly files: readonly string[];
  /** The summary's number of notes (`summarize`). */
  readonly notes: number;
  readonly indexInfo: IndexInfo | null;
}

/** The inputs of the fast part that the vault does not hold: what discovery found, and the `--kind` given. */
export interface FastInputs {
  readonly found: Discovery;
  readonly kindOption: VaultKind | null;
  readonly notes: number;
}

/** A remembered answer: the closed rules' findings and the figures of the vault they were made on. */
export interface FastAnswer {
  readonly kind: VaultKind;
  readonly findings: readonly Finding[];
  readonly notes: number;
  readonly indexInfo: IndexInfo | null;
}

/** Starts the cell of a file recorded by its digest (its stat was too recent to trust). */
export const HASHED = '#';

export const statCell = (st: Pick<FileStat, 'size' | 'mtimeMs' | 'mode'> & { ctimeMs: number; ino: number }): string =>
  `${st.size},${st.mtimeMs},${st.ctimeMs},${st.ino},${st.mode}`;

export const discoveryKey = (found: Discovery): string =>
  sha1Base64(
    JSON.stringify([
      found.markdown.map((f) => [f.path, f.via, f.raw ? f.raw.toString('base64') : null]),
      found.other,
      found.skipped,
    ]),
  );

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const KINDS: readonly unknown[] = ['claude', 'hermes'];

function isFastRecord(v: unknown): v is FastRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.root === 'string' &&
    (r.kindOption === null || KINDS.includes(r.kindOption)) &&
    KINDS.includes(r.kind) &&
    typeof r.found === 'string' &&
    isStrings(r.files) &&
    r.files.length % 2 === 0 &&
    typeof r.notes === 'number' &&
    (r.indexInfo === null || (typeof r.indexInfo === 'object' && !Array.isArray(r.indexInfo)))
  );
}

const isFindingList = (v: unknown): v is Finding[] => Array.isArray(v);

function sameDigest(absPath: string, digest: string): boolean {
  try {
    return sha1Base64(readFileSync(absPath)) === digest;
  } catch {
    return false;
  }
}

/** Reads `n` bytes at `at` of an open file, or undefined when it ends first. */
function readAt(fd: number, at: number, n: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, at + got);
    if (k === 0) return undefined;
    got += k;
  }
  return buf;
}

/**
 * The header line and the vault line up to its findings cell (`vaultFast` bytes), without reading the rest of
 * the file; `findings` reads that cell from the same open file (the one the header describes).
 */
function readHead(fd: number): { header: string; prefix: string; findings: () => string | undefined } | undefined {
  const first = Buffer.allocUnsafe(1 << 12);
  const n = readSync(fd, first, 0, first.length, 0);
  const nl = first.subarray(0, n).indexOf(10);
  if (nl === -1) return undefined;
  const header = first.toString('latin1', 0, nl);
  const h = JSON.parse(header) as { vaultLine?: unknown; vaultFast?: unknown };
  const line = h.vaultLine,
    fast = h.vaultFast;
  if (
    !Number.isInteger(line) ||
    !Number.isInteger(fast) ||
    !((fast as number) > 0 && (fast as number) < (line as number))
  )
    return undefined;
  const start = nl + 1;
  const prefix = readAt(fd, start, fast as number);
  if (!prefix) return undefined;
  return {
    header,
    prefix: prefix.toString('utf8'),
    findings: () => readAt(fd, start + (fast as number), (line as number) - (fast as number))?.toString('utf8'),
  };
}

/**
 * What the fast part found: the remembered answer when the vault is unchanged; else what it had to learn to
 * know (discovery, and the stat of the files it compared), which the full run reuses instead of doing it again.
 */
export interface FastResult {
  readonly answer?: FastAnswer;
  readonly found?: Discovery;
  /** By absolute path: the stats taken (files that could not be stat'ed are absent). */
  readonly stats?: ReadonlyMap<string, StatFields>;
}

const keys = new WeakMap<Discovery, string>();
/** `discoveryKey`, once per discovery. */
export function keyOfDiscovery(found: Discovery): string {
  let k = keys.get(found);
  if (k === undefined) keys.set(found, (k = discoveryKey(found)));
  return k;
}

/**
 * The remembered answer for the vault at `root`, if the cache file's header is this build's and this config's
 * (`expect`) and the fast part finds the vault as it recorded it; else what it learned (the full path then runs).
 */
export function fastAnswer(
  file: string,
  expect: { readonly magic: string; readonly version: string; readonly config: string },
  root: string,
  config: Config,
  kindOption: VaultKind | null,
): FastResult {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return {};
  }
  try {
    return answerFrom(fd, expect, root, config, kindOption);
  } catch {
    return {};
  } finally {
    closeSync(fd);
  }
}

function answerFrom(
  fd: number,
  expect: { readonly magic: string; readonly version: string; readonly config: string },
  root: string,
  config: Config,
  kindOption: VaultKind | null,
): FastResult {
  const head = readHead(fd);
  if (!head) return {};
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(head.header) as Record<string, unknown>;
  } catch {
    return {};
  }
  if (header.magic !== expect.magic || header.version !== expect.version || header.config !== expect.config) return {};
  // `*` TAB key TAB fast TAB (findings, read below only if the vault is unchanged).
  const cells = head.prefix.split('\t');
  if (cells.length !== 4 || cells[0] !== '*' || cells[2] === '-' || cells[3] !== '') return {};
  let record: unknown;
  try {
    record = JSON.parse(cells[2]!);
  } catch {
    return {};
  }
  if (!isFastRecord(record) || record.root !== root || record.kindOption !== kindOption) return {};
  let found: Discovery;
  try {
    found = discover(root);
  } catch {
    return {};
  }
  let same = keyOfDiscovery(found) === record.found;
  const roleOf = roleClassifier(config, record.kind);
  const files = record.files;
  const stats = new Map<string, StatFields>();
  let at = 0;
  // Every file is stat'ed even once a difference is found: the full run needs their stats too.
  for (const f of found.markdown) {
    if (roleOf(f.path) === 'ignored') continue;
    const st = statFile(f.absPath);
    if (st) stats.set(f.absPath, st);
    if (!same) continue;
    const cell = files[at + 1];
    if (files[at] !== f.path || cell === undefined || !st) same = false;
    else if (cell.startsWith(HASHED)) {
      // Read and hashed on every such run, until a run that changes anything records its stat.
      same = sameDigest(f.absPath, cell.slice(HASHED.length));
    } else same = statCell(st) === cell;
    at += 2;
  }
  if (!same || at !== files.length) return { found, stats };
  const text = head.findings();
  const findings = text === undefined ? null : new Part(text, isFindingList).get();
  if (!findings) return { found, stats };
  count('check.cache.unchanged');
  return { answer: { kind: record.kind, findings, notes: record.notes, indexInfo: record.indexInfo }, found, stats };
}
