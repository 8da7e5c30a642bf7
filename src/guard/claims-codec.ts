/**
 * The bytes of a claims-cache entry (claims-cache.ts), without node:v8. Its serializer kept the entries' Maps, Sets
 * and typed arrays, but loading `node:v8` loads Node's stream modules with it: ~25 M instructions on every note write
 * that reads a compared note from the cache (session 16), more than decoding the entries. Here an entry is JSON
 * (parsed natively, in one call) plus the places where the JSON stands for something else:
 *
 *   "MLCC" | u32 text encoding (0: latin1, 1: UTF-16LE) | u32 length of the JSON's bytes | JSON [tree, specials] |
 *   padding to 8 | typed arrays' bytes
 *
 * The JSON is stored as Latin-1 when every character fits in a byte, else as UTF-16LE: either decodes by copying,
 * where UTF-8 cost ~10 instructions a byte (the topical bench shape's notes hold CJK: its 20 compared entries are
 * ~3 MB of JSON per note write).
 *
 * `tree` is the value with each Map written as its [key, value] pairs, each Set as its elements, each typed array as
 * null; `specials` lists them (Map, Set, typed array with its type, offset and length) by their path in the tree, the
 * innermost first, so decoding converts the few places listed and never walks the many plain ones (a long note's
 * clauses are ~100,000 strings). Insertion order is kept (pairs and elements are arrays), and every value the JSON
 * cannot give back exactly (undefined, NaN, ±Infinity, -0, a class instance, a Map key that is not a string or
 * number) makes `encodeEntry` throw: such an entry is not cached, and the note's claims are computed again.
 */

type Path = (string | number)[];
type Special =
  | [path: Path, tag: 'm']
  | [path: Path, tag: 's']
  | [path: Path, tag: 't', type: number, offset: number, length: number];

const TYPED = [
  Int32Array,
  Uint32Array,
  Float64Array,
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Float32Array,
] as const;
type Typed = InstanceType<(typeof TYPED)[number]>;
const MAGIC = 0x43434c4d; // "MLCC", little-endian
const HEAD = 12;
/** A character Latin-1 cannot hold. */
const WIDE = /[^\u0000-\u00ff]/;

const typeOf = (x: ArrayBufferView): number => {
  for (let i = 0; i < TYPED.length; i++) if (Object.getPrototypeOf(x) === TYPED[i]!.prototype) return i;
  // A Buffer is a Uint8Array to every reader here.
  if (x instanceof Uint8Array) return TYPED.indexOf(Uint8Array);
  throw new Error('claims-codec: an unsupported typed array');
};

export function encodeEntry(value: unknown): Buffer {
  const specials: Special[] = [];
  const blobs: { bytes: Uint8Array; offset: number }[] = [];
  let blobEnd = 0;
  const walk = (x: unknown, path: Path): unknown => {
    if (x === null || typeof x === 'string' || typeof x === 'boolean') return x;
    if (typeof x === 'number') {
      if (!Number.isFinite(x) || Object.is(x, -0)) throw new Error('claims-codec: a number JSON does not keep');
      return x;
    }
    if (typeof x !== 'object') throw new Error(`claims-codec: a ${typeof x}`);
    if (ArrayBuffer.isView(x)) {
      const type = typeOf(x);
      const size = TYPED[type]!.BYTES_PER_ELEMENT;
      const offset = Math.ceil(blobEnd / 8) * 8;
      const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
      blobs.push({ bytes, offset });
      blobEnd = offset + bytes.length;
      specials.push([path, 't', type, offset, x.byteLength / size]);
      return null;
    }
    if (x instanceof Map) {
      const pairs: unknown[] = [];
      let i = 0;
      for (const [k, v] of x) {
        if (typeof k !== 'string' && (typeof k !== 'number' || !Number.isFinite(k) || Object.is(k, -0)))
          throw new Error('claims-codec: a Map key JSON does not keep');
        pairs.push([k, walk(v, [...path, i, 1])]);
        i++;
      }
      specials.push([path, 'm']);
      return pairs;
    }
    if (x instanceof Set) {
      const out: unknown[] = [];
      let i = 0;
      for (const v of x) out.push(walk(v, [...path, i++]));
      specials.push([path, 's']);
      return out;
    }
    if (Array.isArray(x)) {
      const out: unknown[] = new Array(x.length);
      for (let i = 0; i < x.length; i++) {
        if (!(i in x)) throw new Error('claims-codec: a hole');
        out[i] = walk(x[i], [...path, i]);
      }
      return out;
    }
    if (Object.getPrototypeOf(x) !== Object.prototype) throw new Error('claims-codec: a class instance');
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      if (v === undefined) throw new Error('claims-codec: an undefined property');
      out[k] = walk(v, [...path, k]);
    }
    return out;
  };
  const tree = walk(value, []);
  const text = JSON.stringify([tree, specials]);
  const wide = WIDE.test(text);
  const json = Buffer.from(text, wide ? 'utf16le' : 'latin1');
  const start = Math.ceil((HEAD + json.length) / 8) * 8;
  const out = Buffer.alloc(start + blobEnd);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(wide ? 1 : 0, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, HEAD);
  for (const { bytes, offset } of blobs) out.set(bytes, start + offset);
  return out;
}

/** The value `encodeEntry` was given; throws on bytes it did not write (a corrupt or foreign file). */
export function decodeEntry(data: Uint8Array): unknown {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < HEAD || buf.readUInt32LE(0) !== MAGIC) throw new Error('claims-codec: not an entry');
  const encoding = buf.readUInt32LE(4);
  if (encoding > 1) throw new Error('claims-codec: not an entry');
  const length = buf.readUInt32LE(8);
  if (HEAD + length > buf.length) throw new Error('claims-codec: a text past the end');
  const text = buf.toString(encoding === 1 ? 'utf16le' : 'latin1', HEAD, HEAD + length);
  const [tree, specials] = JSON.parse(text) as [unknown, Special[]];
  const start = Math.ceil((HEAD + length) / 8) * 8;
  const root = { v: tree };
  for (const s of specials) {
    const path = s[0];
    let parent: Record<string | number, unknown> = root;
    let key: string | number = 'v';
    for (const step of path) {
      parent = parent[key] as Record<string | number, unknown>;
      key = step;
    }
    const here = parent[key];
    if (s[1] === 't') {
      const T = TYPED[s[2]]!;
      const at = start + s[3];
      const bytes = s[4] * T.BYTES_PER_ELEMENT;
      if (at + bytes > buf.length) throw new Error('claims-codec: a typed array past the end');
      // A view when aligned (the file's own buffer), else a copy.
      const offset = buf.byteOffset + at;
      const whole = buf.buffer as ArrayBuffer;
      parent[key] =
        offset % T.BYTES_PER_ELEMENT === 0
          ? (new T(whole, offset, s[4]) as Typed)
          : (new T(whole.slice(offset, offset + bytes)) as Typed);
    } else if (!Array.isArray(here)) throw new Error('claims-codec: a Map or Set that is not a list');
    else parent[key] = s[1] === 'm' ? new Map(here as [unknown, unknown][]) : new Set(here);
  }
  return root.v;
}
