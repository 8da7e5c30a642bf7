/**
 * Guard's signature cache, VAULT/.memlint/cache/guard-v2.bin. Layout: a 4-byte header length, a
 * small JSON header (magic, version, count, section sizes), then the head, read on every call:
 * aligned typed arrays of sizes and mtimes (Float64), shingle offsets and lengths, link and metadata
 * end offsets (Uint32), every note's MinHash signature (Uint32, PERMUTATIONS each), the paths joined
 * by NUL and each note's metadata as JSON (parsed only for the notes that match); the signatures are read on the
 * first estimate (a 512-note streamed pass was tried in session 18: −8 MB RSS but +5% instructions at old 10k). Then the tail, read
 * only where asked: each note's shingle hashes (Uint32; read for the MinHash candidates only, in
 * coalesced ranges: on a vault of long notes they are most of the file) and each note's links (kind
 * and target, mentions left out, as a JSON array; read when an index write asks what is reachable).
 * The file stays open while the table is used (`close()`), so a cache rewritten meanwhile by another
 * call (a rename: a new file) cannot mix with the one read. An entry is used only while its file has
 * the same size and mtime; a corrupt file or one from another version is rebuilt.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../util/cache-dir.js';
import { CACHE_KEY } from '../version.js';
import { PERMUTATIONS } from '../similarity/minhash.js';

export interface NoteMetaLite {
  readonly name: string | null;
  readonly type: string | null;
  readonly modified: string | null;
  readonly origin: string | null;
}

export interface NoteSignature {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly signature: Uint32Array;
  readonly shingles: Uint32Array;
  /** Name, type, modified and origin: parsed on first use. */
  meta(): NoteMetaLite;
  /** Its links as kind, target, kind, target, … (mentions left out): parsed on first use. */
  links(): readonly string[];
  /** The links as the cache file holds them (JSON), copied as is when the cache is written again. */
  linksJson?(): Buffer;
}

const MAGIC = 'memlint-guard-cache-4';
export const CACHE_FILE = join('.memlint', 'cache', 'guard-v2.bin');
/**
 * The entries written since CACHE_FILE, in the same format (signatures.ts): after an edit the few notes read again
 * are written here instead of rewriting the whole file (30 MB at hard 10k, ~230 ms), until they are too many. Each
 * entry answers for its file's size and mtime, as in CACHE_FILE, so the two files need no tie to each other.
 */
export const DELTA_FILE = join('.memlint', 'cache', 'guard-v2-delta.bin');

interface Header {
  magic: string;
  version: string;
  perms: number;
  count: number;
  /** Shingle words in the tail. */
  words: number;
  pathsBytes: number;
  metaBytes: number;
  linksBytes: number;
}

/** A part of the cache file that does not decode (its head read): the caller answers again without the cache. */
export class CorruptCacheError extends Error {}

function decoded<T>(json: string): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    throw new CorruptCacheError('memlint: the guard cache does not decode');
  }
}

const align8 = (n: number): number => (n + 7) & ~7;

/** Where each section starts, from the header alone (the writer and the reader share it). */
function layout(headerLen: number, h: Header) {
  const n = h.count;
  const numbers = align8(4 + headerLen);
  const sigs = align8(numbers + n * 8 * 2 + n * 4 * 4);
  const paths = sigs + n * PERMUTATIONS * 4;
  const meta = paths + h.pathsBytes;
  const shingles = align8(meta + h.metaBytes);
  const links = shingles + h.words * 4;
  return { numbers, sigs, paths, meta, shingles, links, end: links + h.linksBytes };
}

/** Shingle ranges closer than this are read in one call (a read per candidate costs more than the gap's bytes). */
const COALESCE_BYTES = 16 * 1024;

/** `buf.length` bytes from `position` into `buf`. */
function readInto(fd: number, buf: Buffer, position: number): void {
  let got = 0;
  while (got < buf.length) {
    const r = readSync(fd, buf, got, buf.length - got, position + got);
    if (r === 0) throw new CorruptCacheError('memlint: the guard cache file ended early');
    got += r;
  }
}

/** A buffer of its own (offset 0: typed arrays over it are aligned). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafeSlow(length);
  readInto(fd, buf, position);
  return buf;
}

/** `scan`'s reused buffer: ranges are read into it up to this size. */
const STREAM_BYTES = 256 * 1024;

/**
 * The cache as read: typed arrays over the head's bytes; `paths` sorted (as `writeCache` writes them). Nothing is made per note until asked
 * (`note(i)`), so checking 10,000 cached notes costs a size/mtime compare and a signature compare
 * each; a note's shingles and links are read from the file when first asked.
 */
export class SignatureTable {
  private readonly shingleParts: (Uint32Array | undefined)[];
  private allShingles: Uint32Array | null = null;
  private linkBytes: Buffer | null = null;
  /** Every entry's signature, read whole on the first `estimate` (or `loadAll`); `signature(i)` alone reads one. */
  private sigs: Uint32Array | null = null;
  private fd: number | null;

  constructor(
    fd: number,
    readonly paths: readonly string[],
    readonly sizes: Float64Array,
    readonly mtimes: Float64Array,
    private readonly offsets: Uint32Array,
    private readonly lengths: Uint32Array,
    private readonly sigsAt: number,
    private readonly metaBuf: Buffer,
    private readonly metaStart: number,
    private readonly metaEnds: Uint32Array,
    private readonly shinglesAt: number,
    private readonly shingleWords: number,
    private readonly linksAt: number,
    private readonly linksBytes: number,
    private readonly linkEnds: Uint32Array,
  ) {
    this.fd = fd;
    this.shingleParts = new Array<Uint32Array | undefined>(paths.length);
  }

  /** The entry of a path (a scan: asked once a call; `noteSignatures` walks the sorted paths beside the listing). */
  indexOf(path: string): number | undefined {
    const i = this.paths.indexOf(path);
    return i < 0 ? undefined : i;
  }

  private allSigs(): Uint32Array {
    if (this.sigs) return this.sigs;
    const b = readAt(this.openFd(), this.sigsAt, this.paths.length * PERMUTATIONS * 4);
    return (this.sigs = new Uint32Array(b.buffer, b.byteOffset, this.paths.length * PERMUTATIONS));
  }

  /** Entry i's MinHash signature. */
  signature(i: number): Uint32Array {
    if (this.sigs) return this.sigs.subarray(i * PERMUTATIONS, (i + 1) * PERMUTATIONS);
    const b = readAt(this.openFd(), this.sigsAt + i * PERMUTATIONS * 4, PERMUTATIONS * 4);
    return new Uint32Array(b.buffer, b.byteOffset, PERMUTATIONS);
  }

  /** The fraction of MinHash rows entry i shares with a signature (as `estimate`), without a view. */
  estimate(i: number, sig: Uint32Array): number {
    const words = this.allSigs();
    const o = i * PERMUTATIONS;
    let eq = 0;
    for (let k = 0; k < PERMUTATIONS; k++) if (words[o + k] === sig[k]) eq++;
    return eq / PERMUTATIONS;
  }

  private openFd(): number {
    if (this.fd === null) throw new Error('memlint: the guard cache was read after it was closed');
    return this.fd;
  }

  /** Reads the shingles of these entries now, neighbours in one call each (they are read once either way). */
  prefetch(indices: readonly number[]): void {
    if (this.allShingles) return;
    const want = indices.filter((i) => this.shingleParts[i] === undefined && this.lengths[i]! > 0);
    want.sort((a, b) => this.offsets[a]! - this.offsets[b]!);
    for (let k = 0; k < want.length;) {
      const from = this.offsets[want[k]!]!;
      let to = from + this.lengths[want[k]!]!;
      let e = k + 1;
      while (e < want.length && (this.offsets[want[e]!]! - to) * 4 <= COALESCE_BYTES) {
        to = Math.max(to, this.offsets[want[e]!]! + this.lengths[want[e]!]!);
        e++;
      }
      const b = readAt(this.openFd(), this.shinglesAt + from * 4, (to - from) * 4);
      const words = new Uint32Array(b.buffer, b.byteOffset, to - from);
      for (; k < e; k++) {
        const i = want[k]!;
        const o = this.offsets[i]! - from;
        this.shingleParts[i] = words.subarray(o, o + this.lengths[i]!);
      }
    }
  }

  /**
   * Calls `visit(k, shingles)` for each `indices[k]` (any order; visited in file order), the shingles read in coalesced
   * ranges through one reused buffer of STREAM_BYTES (a longer range is cut; a longer note gets a buffer of its own):
   * the view is valid during the call only, `keep` it to use it later. What `prefetch` then `shingles` give, without
   * touching fresh memory for every candidate: on the session-17 machine a fresh MB cost ~5 ms in page faults, and
   * the hard 10k bench draft's ~1,200 candidates hold 6 MB of shingles, of which only the few that score are kept.
   */
  scan(indices: readonly number[], visit: (k: number, shingles: Uint32Array) => void): void {
    const order = indices.map((_, k) => k);
    const ready = (i: number): Uint32Array | undefined =>
      this.allShingles || this.lengths[i] === 0 || this.shingleParts[i] !== undefined ? this.shingles(i) : undefined;
    const want: number[] = [];
    for (const k of order) {
      const got = ready(indices[k]!);
      if (got) visit(k, got);
      else want.push(k);
    }
    want.sort((a, b) => this.offsets[indices[a]!]! - this.offsets[indices[b]!]!);
    let scratch: Uint32Array | null = null;
    for (let w = 0; w < want.length;) {
      const first = indices[want[w]!]!;
      const from = this.offsets[first]!;
      let to = from + this.lengths[first]!;
      let e = w + 1;
      for (; e < want.length; e++) {
        const i = indices[want[e]!]!;
        const end = Math.max(to, this.offsets[i]! + this.lengths[i]!);
        if ((this.offsets[i]! - to) * 4 > COALESCE_BYTES || (end - from) * 4 > STREAM_BYTES) break;
        to = end;
      }
      const words = to - from;
      let view: Uint32Array;
      if (words * 4 > STREAM_BYTES) {
        const b = readAt(this.openFd(), this.shinglesAt + from * 4, words * 4);
        view = new Uint32Array(b.buffer, b.byteOffset, words);
      } else {
        scratch ??= new Uint32Array(STREAM_BYTES / 4);
        const bytes = Buffer.from(scratch.buffer, 0, words * 4);
        readInto(this.openFd(), bytes, this.shinglesAt + from * 4);
        view = scratch.subarray(0, words);
      }
      for (; w < e; w++) {
        const i = indices[want[w]!]!;
        const o = this.offsets[i]! - from;
        visit(want[w]!, view.subarray(o, o + this.lengths[i]!));
      }
    }
  }

  /** Keeps a copy of entry i's shingles (from `scan`), so that `shingles(i)` does not read them again. */
  keep(i: number, shingles: Uint32Array): void {
    if (!this.allShingles && this.shingleParts[i] === undefined) this.shingleParts[i] = shingles.slice();
  }

  /** Entry i's shingle hashes (sorted). */
  shingles(i: number): Uint32Array {
    const o = this.offsets[i]!,
      len = this.lengths[i]!;
    if (this.allShingles) return this.allShingles.subarray(o, o + len);
    if (len === 0) return new Uint32Array(0);
    if (this.shingleParts[i] === undefined) this.prefetch([i]);
    return this.shingleParts[i]!;
  }

  /** Reads every entry's shingles (before the cache is written again). */
  loadAll(): void {
    this.allSigs();
    if (this.allShingles) return;
    const b = readAt(this.openFd(), this.shinglesAt, this.shingleWords * 4);
    this.allShingles = new Uint32Array(b.buffer, b.byteOffset, this.shingleWords);
  }

  /** Entry i's links (kind, target, …), decoded now. */
  links(i: number): readonly string[] {
    return decoded<string[]>(this.linksJson(i).toString('utf8'));
  }

  linksJson(i: number): Buffer {
    this.linkBytes ??= readAt(this.openFd(), this.linksAt, this.linksBytes);
    return this.linkBytes.subarray(i === 0 ? 0 : this.linkEnds[i - 1]!, this.linkEnds[i]!);
  }

  note(i: number): NoteSignature {
    const from = this.metaStart + (i === 0 ? 0 : this.metaEnds[i - 1]!);
    const to = this.metaStart + this.metaEnds[i]!;
    const buf = this.metaBuf;
    let parsed: NoteMetaLite | null = null;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const table = this;
    return {
      path: this.paths[i]!,
      size: this.sizes[i]!,
      mtimeMs: this.mtimes[i]!,
      get signature() {
        return table.signature(i);
      },
      get shingles() {
        return table.shingles(i);
      },
      meta: () => (parsed ??= decoded<NoteMetaLite>(buf.toString('utf8', from, to))),
      links: () => this.links(i),
      linksJson: () => this.linksJson(i),
    };
  }

  /**
   * Entry i held in memory, decoded now (its signature, shingles, metadata and links: a part that does not decode
   * throws here, not when used): usable after `close`.
   */
  held(i: number): NoteSignature {
    const signature = this.signature(i).slice();
    const shingles = this.shingles(i).slice();
    const linksJson = Buffer.from(this.linksJson(i));
    const links = this.links(i);
    const meta = this.note(i).meta();
    return {
      path: this.paths[i]!,
      size: this.sizes[i]!,
      mtimeMs: this.mtimes[i]!,
      signature,
      shingles,
      meta: () => meta,
      links: () => links,
      linksJson: () => linksJson,
    };
  }

  /** Closes the file: the table's head stays usable, reading a tail not read yet throws. */
  close(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.fd = null;
  }
}

export function readCache(vaultRoot: string, file: string = CACHE_FILE): SignatureTable | null {
  let fd: number;
  try {
    fd = openSync(join(vaultRoot, file), 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const first = readAt(fd, 0, Math.min(size, 4096));
    const headerLen = first.readUInt32LE(0);
    const headerBytes = 4 + headerLen <= first.length ? first : readAt(fd, 0, 4 + headerLen);
    const header = JSON.parse(headerBytes.toString('utf8', 4, 4 + headerLen)) as Header;
    if (header.magic !== MAGIC || header.version !== CACHE_KEY || header.perms !== PERMUTATIONS) {
      closeSync(fd);
      return null;
    }
    const n = header.count;
    const at = layout(headerLen, header);
    if (at.end !== size) throw new Error('size');
    // The head without the signatures (read where asked: the first `estimate`, or `signature(i)` alone).
    const buf = readAt(fd, 0, at.sigs);
    const names = readAt(fd, at.paths, at.shingles - at.paths);
    const ab = buf.buffer as ArrayBuffer;
    const base = buf.byteOffset;
    let o = base + at.numbers;
    const sizes = new Float64Array(ab, o, n);
    const mtimes = new Float64Array(ab, (o += n * 8), n);
    const offsets = new Uint32Array(ab, (o += n * 8), n);
    const lengths = new Uint32Array(ab, (o += n * 4), n);
    const linkEnds = new Uint32Array(ab, (o += n * 4), n);
    const metaEnds = new Uint32Array(ab, (o += n * 4), n);
    const paths = n === 0 ? [] : names.toString('utf8', 0, header.pathsBytes).split('\0');
    if (paths.length !== n) throw new Error('paths');
    for (let i = 0; i < n; i++)
      if (
        offsets[i]! + lengths[i]! > header.words ||
        (i > 0 && (linkEnds[i]! < linkEnds[i - 1]! || metaEnds[i]! < metaEnds[i - 1]!))
      )
        throw new Error('offsets');
    if (n > 0 && (linkEnds[n - 1] !== header.linksBytes || metaEnds[n - 1] !== header.metaBytes))
      throw new Error('ends');
    return new SignatureTable(
      fd,
      paths,
      sizes,
      mtimes,
      offsets,
      lengths,
      at.sigs,
      names,
      at.meta - at.paths,
      metaEnds,
      at.shingles,
      header.words,
      at.links,
      header.linksBytes,
      linkEnds,
    );
  } catch {
    closeSync(fd);
    return null; // corrupt: rebuilt by the caller
  }
}

export function writeCache(vaultRoot: string, notes: readonly NoteSignature[], file: string = CACHE_FILE): void {
  const n = notes.length;
  let total = 0;
  for (const note of notes) total += note.shingles.length;
  const paths = Buffer.from(notes.map((x) => x.path).join('\0'), 'utf8');
  const metaParts = notes.map((x) => Buffer.from(JSON.stringify(x.meta()), 'utf8'));
  const metas = Buffer.concat(metaParts);
  const linkParts = notes.map((x) => x.linksJson?.() ?? Buffer.from(JSON.stringify(x.links()), 'utf8'));
  const links = Buffer.concat(linkParts);
  const h: Header = {
    magic: MAGIC,
    version: CACHE_KEY,
    perms: PERMUTATIONS,
    count: n,
    words: total,
    pathsBytes: paths.length,
    metaBytes: metas.length,
    linksBytes: links.length,
  };
  const header = Buffer.from(JSON.stringify(h));
  const at = layout(header.length, h);
  const ab = new ArrayBuffer(at.end);
  const out = Buffer.from(ab);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  const sizes = new Float64Array(ab, at.numbers, n);
  const mtimes = new Float64Array(ab, at.numbers + n * 8, n);
  const offsets = new Uint32Array(ab, at.numbers + n * 16, n);
  const lengths = new Uint32Array(ab, at.numbers + n * 20, n);
  const linkEnds = new Uint32Array(ab, at.numbers + n * 24, n);
  const metaEnds = new Uint32Array(ab, at.numbers + n * 28, n);
  const sigs = new Uint32Array(ab, at.sigs, n * PERMUTATIONS);
  const shingles = new Uint32Array(ab, at.shingles, total);
  let linkEnd = 0;
  let metaEnd = 0;
  let w = 0;
  notes.forEach((x, i) => {
    sizes[i] = x.size;
    mtimes[i] = x.mtimeMs;
    offsets[i] = w;
    lengths[i] = x.shingles.length;
    linkEnds[i] = linkEnd += linkParts[i]!.length;
    metaEnds[i] = metaEnd += metaParts[i]!.length;
    sigs.set(x.signature, i * PERMUTATIONS);
    shingles.set(x.shingles, w);
    w += x.shingles.length;
  });
  paths.copy(out, at.paths);
  metas.copy(out, at.meta);
  links.copy(out, at.links);
  writeCacheFile(join(vaultRoot, file), out);
}
