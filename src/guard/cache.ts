/**
 * Guard's signature cache, VAULT/.memlint/cache/guard-v2.bin. Layout: a 4-byte header length, a
 * small JSON header (magic, version, count), then aligned typed arrays: sizes and mtimes
 * (Float64), offsets and lengths (Uint32), the words (Uint32: each note's MinHash signature then its
 * shingle hashes), and two strings: the paths joined by NUL, and each note's metadata as JSON joined
 * by NUL (parsed only for the notes that match), and each note's links (kind and target, mentions
 * left out) as a JSON array, found by their end offsets (Uint32), decoded only when an index write
 * asks what is reachable. An entry is used only while its file has the same size and mtime; a corrupt
 * file or one from another version is rebuilt.
 */
import { readFileSync } from 'node:fs';
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

const MAGIC = 'memlint-guard-cache-3';
export const CACHE_FILE = join('.memlint', 'cache', 'guard-v2.bin');

interface Header {
  magic: string;
  version: string;
  perms: number;
  count: number;
  words: number;
  pathsBytes: number;
  metaBytes: number;
  linksBytes: number;
}

/** Metadata bytes per entry are found by offsets, decoded only for the notes that match. */

const align8 = (n: number): number => (n + 7) & ~7;

/**
 * The cache as read: typed arrays over the file's bytes. Nothing is made per note until asked
 * (`note(i)`), so checking 10,000 cached notes costs a size/mtime compare and a signature compare each.
 */
export class SignatureTable {
  readonly index = new Map<string, number>();
  private readonly metaEnds: Uint32Array;

  constructor(
    private readonly buf: Buffer,
    readonly paths: readonly string[],
    readonly sizes: Float64Array,
    readonly mtimes: Float64Array,
    readonly offsets: Uint32Array,
    readonly lengths: Uint32Array,
    readonly words: Uint32Array,
    private readonly metaStart: number,
    metaEnds: Uint32Array,
    private readonly linksStart: number,
    private readonly linkEnds: Uint32Array,
  ) {
    this.metaEnds = metaEnds;
    for (let i = 0; i < paths.length; i++) this.index.set(paths[i]!, i);
  }

  /** The fraction of MinHash rows entry i shares with a signature (as `estimate`), without a view. */
  estimate(i: number, sig: Uint32Array): number {
    const words = this.words;
    const o = this.offsets[i]!;
    let eq = 0;
    for (let k = 0; k < PERMUTATIONS; k++) if (words[o + k] === sig[k]) eq++;
    return eq / PERMUTATIONS;
  }

  /** Entry i's links (kind, target, …), decoded now. */
  links(i: number): readonly string[] {
    return JSON.parse(this.linksJson(i).toString('utf8')) as string[];
  }

  linksJson(i: number): Buffer {
    return this.buf.subarray(
      this.linksStart + (i === 0 ? 0 : this.linkEnds[i - 1]!),
      this.linksStart + this.linkEnds[i]!,
    );
  }

  note(i: number): NoteSignature {
    const o = this.offsets[i]!,
      len = this.lengths[i]!;
    const from = i === 0 ? this.metaStart : this.metaEnds[i - 1]! + 1;
    const to = this.metaEnds[i]!;
    const buf = this.buf;
    let parsed: NoteMetaLite | null = null;
    return {
      path: this.paths[i]!,
      size: this.sizes[i]!,
      mtimeMs: this.mtimes[i]!,
      signature: this.words.subarray(o, o + PERMUTATIONS),
      shingles: this.words.subarray(o + PERMUTATIONS, o + PERMUTATIONS + len),
      meta: () => (parsed ??= JSON.parse(buf.toString('utf8', from, to)) as NoteMetaLite),
      links: () => this.links(i),
      linksJson: () => this.linksJson(i),
    };
  }
}

export function readCache(vaultRoot: string): SignatureTable | null {
  let buf: Buffer;
  try {
    buf = readFileSync(join(vaultRoot, CACHE_FILE));
  } catch {
    return null;
  }
  try {
    const headerLen = buf.readUInt32LE(0);
    const header = JSON.parse(buf.toString('utf8', 4, 4 + headerLen)) as Header;
    if (header.magic !== MAGIC || header.version !== CACHE_KEY || header.perms !== PERMUTATIONS) return null;
    const n = header.count;
    let at = align8(4 + headerLen);
    // Typed arrays need 8-byte alignment: use the read buffer as is when it has it, else copy once.
    let ab: ArrayBuffer;
    let base = 0;
    if (buf.byteOffset % 8 === 0) {
      ab = buf.buffer as ArrayBuffer;
      base = buf.byteOffset;
    } else {
      ab = new ArrayBuffer(buf.length);
      new Uint8Array(ab).set(buf);
    }
    const sizes = new Float64Array(ab, base + at, n);
    at += n * 8;
    const mtimes = new Float64Array(ab, base + at, n);
    at += n * 8;
    const offsets = new Uint32Array(ab, base + at, n);
    at += n * 4;
    const lengths = new Uint32Array(ab, base + at, n);
    at += n * 4;
    const linkEnds = new Uint32Array(ab, base + at, n);
    at = align8(at + n * 4);
    const words = new Uint32Array(ab, base + at, header.words);
    at += header.words * 4;
    const paths = buf.toString('utf8', at, at + header.pathsBytes).split('\0');
    at += header.pathsBytes;
    const metaStart = at;
    const linksStart = metaStart + header.metaBytes;
    if (linksStart + header.linksBytes > buf.length || (n > 0 && linkEnds[n - 1] !== header.linksBytes)) return null;
    const metaEnds = new Uint32Array(n);
    let k = 0;
    for (let i = metaStart; i < metaStart + header.metaBytes && k < n; i++) if (buf[i] === 0) metaEnds[k++] = i;
    if (k === n - 1) metaEnds[k++] = metaStart + header.metaBytes;
    if (paths.length !== n || k !== n) return null;
    for (let i = 0; i < n; i++)
      if (offsets[i]! + PERMUTATIONS + lengths[i]! > words.length || (i > 0 && linkEnds[i]! < linkEnds[i - 1]!))
        return null;
    return new SignatureTable(
      buf,
      paths,
      sizes,
      mtimes,
      offsets,
      lengths,
      words,
      metaStart,
      metaEnds,
      linksStart,
      linkEnds,
    );
  } catch {
    return null; // corrupt: rebuilt by the caller
  }
}

export function writeCache(vaultRoot: string, notes: readonly NoteSignature[]): void {
  const n = notes.length;
  let total = 0;
  for (const note of notes) total += PERMUTATIONS + note.shingles.length;
  const paths = Buffer.from(notes.map((x) => x.path).join('\0'), 'utf8');
  const metas = Buffer.from(notes.map((x) => JSON.stringify(x.meta()).replace(/\0/g, '')).join('\0'), 'utf8');
  const linkParts = notes.map((x) => x.linksJson?.() ?? Buffer.from(JSON.stringify(x.links()), 'utf8'));
  const links = Buffer.concat(linkParts);
  const header = Buffer.from(
    JSON.stringify({
      magic: MAGIC,
      version: CACHE_KEY,
      perms: PERMUTATIONS,
      count: n,
      words: total,
      pathsBytes: paths.length,
      metaBytes: metas.length,
      linksBytes: links.length,
    } satisfies Header),
  );
  let at = align8(4 + header.length);
  const numbersStart = at;
  at += n * 8 * 2 + n * 4 * 3;
  at = align8(at);
  const wordsStart = at;
  const size = wordsStart + total * 4 + paths.length + metas.length + links.length;
  const ab = new ArrayBuffer(size);
  const out = Buffer.from(ab);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  const sizes = new Float64Array(ab, numbersStart, n);
  const mtimes = new Float64Array(ab, numbersStart + n * 8, n);
  const offsets = new Uint32Array(ab, numbersStart + n * 16, n);
  const lengths = new Uint32Array(ab, numbersStart + n * 20, n);
  const linkEnds = new Uint32Array(ab, numbersStart + n * 24, n);
  let end = 0;
  linkParts.forEach((b, i) => {
    end += b.length;
    linkEnds[i] = end;
  });
  const words = new Uint32Array(ab, wordsStart, total);
  let w = 0;
  notes.forEach((x, i) => {
    sizes[i] = x.size;
    mtimes[i] = x.mtimeMs;
    offsets[i] = w;
    lengths[i] = x.shingles.length;
    words.set(x.signature, w);
    words.set(x.shingles, w + PERMUTATIONS);
    w += PERMUTATIONS + x.shingles.length;
  });
  paths.copy(out, wordsStart + total * 4);
  metas.copy(out, wordsStart + total * 4 + paths.length);
  links.copy(out, wordsStart + total * 4 + paths.length + metas.length);
  const file = join(vaultRoot, CACHE_FILE);
  writeCacheFile(file, out);
}
