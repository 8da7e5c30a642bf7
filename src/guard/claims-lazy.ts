/**
 * A note's claims as guard's claims cache stores them (claims-cache.ts): the large parts of a long
 * note's claims, decoded only where the conflict engine looks. On the topical bench shape the 20
 * closest notes' claims were ~10 MB per note write, and deserializing them whole (14k sentence
 * subjects as Sets, 30k frames, 18k words) was most of the write (issue 14). The engine
 * (src/similarity/claims.ts) looks `words` and a large note's `frames` up by the draft's keys,
 * reads `subject[i]` and `sentences[i]` by index, and iterates the rest.
 *
 * (`frames` has been typed arrays since session 7's claims work, s14c2: stored as they are.)
 * So `words` is kept as columns with an open-addressing hash table over their keys
 * (a lookup decodes one entry; the key compared as a whole string, so a collision only costs a
 * probe), `subject` and `sentences` as one string each with end offsets, decoded per index. What
 * they give back is a real Map (a subclass) and a real array (a Proxy over one): `get`, `has` and
 * `size` answer from the columns; anything else (iteration, `set`, …) first fills the Map with
 * every entry in the stored order, which is the order the note's Map had, so the first conflict
 * found is the same. Nothing else is lazy: `things`, `values`, `rules` and the sets stay as they were.
 */
import type { NoteClaims, Stance } from '../similarity/claims.js';
import type { Sentence } from '../similarity/text.js';
import { lazyArray } from '../util/lazy-array.js';

/** Strings, concatenated, and where each ends. */
interface Strings {
  readonly text: string;
  readonly ends: Uint32Array;
}

const packStrings = (xs: readonly string[]): Strings => {
  const ends = new Uint32Array(xs.length);
  let at = 0;
  xs.forEach((x, i) => (ends[i] = at += x.length));
  return { text: xs.join(''), ends };
};
const stringAt = (s: Strings, i: number): string => s.text.slice(i === 0 ? 0 : s.ends[i - 1]!, s.ends[i]!);

/** FNV-1a over UTF-16 units: the same on write and read (the table is rebuilt by a new build anyway: CACHE_KEY). */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Slot → entry number + 1 (0: empty); size a power of two ≥ 2 × entries. */
function hashTable(keys: Strings, n: number): Int32Array {
  let size = 2;
  while (size < n * 2) size *= 2;
  const table = new Int32Array(size);
  for (let i = 0; i < n; i++) {
    let slot = hashOf(stringAt(keys, i)) & (size - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (size - 1);
    table[slot] = i + 1;
  }
  return table;
}

interface StoredMap<C> {
  readonly keys: Strings;
  readonly table: Int32Array;
  readonly columns: C;
}

function storeMap<V, C>(m: ReadonlyMap<string, V>, columns: (values: readonly V[]) => C): StoredMap<C> {
  const keys = packStrings([...m.keys()]);
  return { keys, table: hashTable(keys, m.size), columns: columns([...m.values()]) };
}

/** A Map whose entries stay in columns until something other than get/has/size asks for them. */
class LazyMap<V, C> extends Map<string, V> {
  #stored: StoredMap<C> | null;
  readonly #decode: (columns: C, i: number) => V;
  readonly #decoded = new Map<number, V>();

  constructor(stored: StoredMap<C>, decode: (columns: C, i: number) => V) {
    super();
    this.#stored = stored;
    this.#decode = decode;
  }

  #find(key: string): number {
    const s = this.#stored!;
    const mask = s.table.length - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const e = s.table[slot]!;
      if (e === 0) return -1;
      if (stringAt(s.keys, e - 1) === key) return e - 1;
    }
  }

  #value(i: number): V {
    let v = this.#decoded.get(i);
    if (v === undefined) {
      v = this.#decode(this.#stored!.columns, i);
      this.#decoded.set(i, v);
    }
    return v;
  }

  /** Every entry into the Map itself, in the stored order (the decoded values kept: one object per entry). */
  #fill(): void {
    const s = this.#stored;
    if (!s) return;
    const all: [string, V][] = [];
    for (let i = 0; i < s.keys.ends.length; i++) all.push([stringAt(s.keys, i), this.#value(i)]);
    this.#stored = null;
    for (const [k, v] of all) super.set(k, v);
  }

  override get(key: string): V | undefined {
    if (!this.#stored) return super.get(key);
    const i = typeof key === 'string' ? this.#find(key) : -1;
    return i < 0 ? undefined : this.#value(i);
  }
  override has(key: string): boolean {
    if (!this.#stored) return super.has(key);
    return typeof key === 'string' && this.#find(key) >= 0;
  }
  override get size(): number {
    return this.#stored ? this.#stored.keys.ends.length : super.size;
  }
  override set(key: string, value: V): this {
    this.#fill();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.#fill();
    return super.delete(key);
  }
  override clear(): void {
    this.#fill();
    super.clear();
  }
  override forEach(cb: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(cb, thisArg);
  }
  override entries(): MapIterator<[string, V]> {
    this.#fill();
    return super.entries();
  }
  override keys(): MapIterator<string> {
    this.#fill();
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.#fill();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[string, V]> {
    this.#fill();
    return super[Symbol.iterator]();
  }
}

/** The stored form (v8-serialized by the claims cache). */
export interface StoredClaims {
  readonly sentences: { readonly texts: Strings; readonly offsets: Float64Array; readonly lines: Uint32Array };
  readonly things: NoteClaims['things'];
  readonly values: NoteClaims['values'];
  readonly refusedValues: NoteClaims['refusedValues'];
  readonly rules: NoteClaims['rules'];
  readonly numbers: NoteClaims['numbers'];
  readonly words: StoredMap<{ readonly pos: Int32Array; readonly neg: Int32Array }>;
  /** Already typed arrays (src/similarity/claims.ts `FrameSet`): stored as they are. */
  readonly frames: NoteClaims['frames'];
  /** Per sentence: its subject's stems in their (sorted) order, each followed by NUL. */
  readonly subject: Strings;
}

/** Null when a stem holds a NUL (the separator): such a note is stored as it is. */
export function storeClaims(sentences: readonly Sentence[], c: NoteClaims): StoredClaims | null {
  const subjects: string[] = [];
  for (const stems of c.subject) {
    let s = '';
    for (const t of stems) {
      if (t.includes('\0')) return null;
      s += `${t}\0`;
    }
    subjects.push(s);
  }
  return {
    sentences: {
      texts: packStrings(sentences.map((s) => s.text)),
      offsets: Float64Array.from(sentences, (s) => s.offset),
      lines: Uint32Array.from(sentences, (s) => s.line),
    },
    things: c.things,
    values: c.values,
    refusedValues: c.refusedValues,
    rules: c.rules,
    numbers: c.numbers,
    words: storeMap(c.words, (vs: readonly Stance[]) => ({
      pos: Int32Array.from(vs, (v) => v.pos),
      neg: Int32Array.from(vs, (v) => v.neg),
    })),
    frames: c.frames,
    subject: packStrings(subjects),
  };
}

/** The note's sentences and claims over the stored form (decoded where read). */
export function loadClaims(s: StoredClaims): { sentences: readonly { s: Sentence }[]; claims: NoteClaims } {
  const n = s.sentences.lines.length;
  const sentences = lazyArray(n, (i) => ({
    s: { text: stringAt(s.sentences.texts, i), offset: s.sentences.offsets[i]!, line: s.sentences.lines[i]! },
  }));
  const subject = lazyArray(s.subject.ends.length, (i) => {
    const stems = stringAt(s.subject, i).split('\0');
    stems.pop(); // after the last NUL
    return stems;
  });
  const claims: NoteClaims = {
    things: s.things,
    values: s.values,
    refusedValues: s.refusedValues,
    rules: s.rules,
    numbers: s.numbers,
    words: new LazyMap(s.words, (c, i) => ({ pos: c.pos[i]!, neg: c.neg[i]! })),
    frames: s.frames,
    subject,
  };
  return { sentences, claims };
}

/** True when `x` has the stored form's shape (a cache file from this build may still be corrupt). */
export function isStoredClaims(x: unknown): x is StoredClaims {
  const s = x as Partial<StoredClaims> | null;
  const strings = (v: unknown): boolean =>
    typeof (v as Strings | null)?.text === 'string' && (v as Strings).ends instanceof Uint32Array;
  const map = (v: unknown): boolean => {
    const m = v as StoredMap<unknown> | null;
    return !!m && strings(m.keys) && m.table instanceof Int32Array && typeof m.columns === 'object';
  };
  const frameSet = (v: unknown): boolean => {
    const f = v as NoteClaims['frames'] | null;
    return (
      !!f &&
      Array.isArray(f.clauses) &&
      f.at instanceof Int32Array &&
      f.hash instanceof Float64Array &&
      f.clause instanceof Int32Array &&
      f.pos instanceof Uint8Array &&
      f.local instanceof Uint8Array &&
      f.byHash instanceof Int32Array
    );
  };
  return (
    !!s &&
    !!s.sentences &&
    strings(s.sentences.texts) &&
    s.sentences.offsets instanceof Float64Array &&
    s.sentences.lines instanceof Uint32Array &&
    s.sentences.texts.ends.length === s.sentences.lines.length &&
    s.things instanceof Map &&
    s.values instanceof Map &&
    s.refusedValues instanceof Set &&
    s.rules instanceof Map &&
    s.numbers instanceof Set &&
    map(s.words) &&
    frameSet(s.frames) &&
    strings(s.subject)
  );
}
