/**
 * Hermes stores, read as Hermes reads them (tools/memory_tool.py, `MemoryStore._read_file`,
 * `load_from_disk`, `_char_count`): `path.read_text(encoding="utf-8")` (universal newlines: CRLF and
 * CR become "\n"; a BOM stays, as the first character), `raw.split("\n§\n")`, each chunk stripped
 * with Python's `str.strip()`, empty ones dropped, duplicates dropped (first kept), and the budget
 * counted as `len("\n§\n".join(entries))`: code points, not UTF-16 units.
 */
import { sha256Hex } from '../util/digest.js';
import type { HermesEntry, HermesStore, VaultFile } from './model.js';

export const ENTRY_SEPARATOR = '\n§\n';

/** A line holding only `§` between line breaks of any kind (what vault detection looks for). */
export function hasSeparatorLine(text: string): boolean {
  return /(^|[\r\n])§(\r\n|\r|\n|$)/.test(text);
}

const SECTION = Buffer.from('§');
/**
 * `hasSeparatorLine` of the UTF-8 text these bytes hold, without decoding them: guard asks it of a MEMORY.md of
 * 9,000 lines on every note write, where decoding and the regex cost ~30 M instructions. `§` is C2 A7 and the line
 * breaks are ASCII; C2 is never a continuation byte, so each C2 A7 decodes to a `§` whatever precedes it, and a
 * decoded `§` comes only from C2 A7. test/detect-kind.test.ts compares the two.
 */
export function hasSeparatorLineIn(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = b.indexOf(SECTION); i !== -1; i = b.indexOf(SECTION, i + 1)) {
    if (i > 0 && b[i - 1] !== 0x0a && b[i - 1] !== 0x0d) continue;
    const next = i + SECTION.length;
    if (next === b.length || b[next] === 0x0a || b[next] === 0x0d) return true;
  }
  return false;
}

/** Python's `str.isspace()` set, which `str.strip()` removes (not JavaScript's: no BOM, but U+0085 and U+001C–U+001F). */
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** Python `str.strip()`: the stripped text and where it starts and ends. */
export function pyStrip(s: string): { text: string; start: number; end: number } {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.test(s[start]!)) start++;
  while (end > start && PY_SPACE.test(s[end - 1]!)) end--;
  return { text: s.slice(start, end), start, end };
}

/** Python `len()`: code points. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * The text Python's text-mode read returns (universal newlines, the BOM kept when the file has
 * one), with the offset in `text` (the file's text without its BOM) of every character.
 */
function pythonRead(text: string, bom: boolean): { norm: string; at: Int32Array } {
  const at = new Int32Array(text.length + 2);
  let out = bom ? '\uFEFF' : '';
  let n = bom ? 1 : 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 13) {
      at[n++] = i;
      continue;
    }
    out += text.slice(from, i) + '\n';
    at[n++] = i;
    if (text.charCodeAt(i + 1) === 10) i++;
    from = i + 1;
  }
  out += text.slice(from);
  at[n] = text.length;
  return { norm: out, at: at.subarray(0, n + 1) };
}

export interface StoreChunk {
  /** The stripped entry text as Hermes holds it ('' for an empty chunk). */
  readonly text: string;
  /** The chunk in the file's text: [start, end), and the stripped entry inside it. */
  readonly start: number;
  readonly end: number;
  readonly entryStart: number;
  readonly entryEnd: number;
}

/** Every chunk between separators, in file order, empty ones included (rewrites keep them). */
export function storeChunks(text: string, bom = false): StoreChunk[] {
  const { norm, at } = pythonRead(text, bom);
  const out: StoreChunk[] = [];
  let a = 0;
  for (;;) {
    const sep = norm.indexOf(ENTRY_SEPARATOR, a);
    const b = sep === -1 ? norm.length : sep;
    const s = pyStrip(norm.slice(a, b));
    out.push({ text: s.text, start: at[a]!, end: at[b]!, entryStart: at[a + s.start]!, entryEnd: at[a + s.end]! });
    if (sep === -1) break;
    a = sep + ENTRY_SEPARATOR.length; // non-overlapping, like Python str.split
  }
  return out;
}

/** The non-empty entries, in file order (duplicates kept: rules report them, Hermes drops them on load). */
export function splitEntries(text: string, bom = false): { text: string; offset: number }[] {
  if (!pyStrip(pythonRead(text, bom).norm).text) return [];
  return storeChunks(text, bom)
    .filter((c) => c.text !== '')
    .map((c) => ({ text: c.text, offset: c.entryStart }));
}

/** Entries as Hermes holds them after loading: duplicates dropped, first kept. */
export function loadedEntries(entries: readonly { text: string }[]): string[] {
  return [...new Set(entries.map((e) => e.text))];
}

/** `_char_count`: code points of the loaded entries joined by "\n§\n". */
export function storeChars(entries: readonly string[]): number {
  if (!entries.length) return 0;
  return entries.reduce((n, e) => n + codePoints(e), 0) + 3 * (entries.length - 1);
}

/** Character count of a store's text as Hermes measures it. */
export function hermesChars(text: string, bom = false): number {
  return storeChars(loadedEntries(splitEntries(text, bom)));
}

export function readStore(file: VaultFile, maxChars: number): HermesStore {
  const entries: HermesEntry[] = splitEntries(file.text, file.bom).map((e, i) => ({
    index: i + 1,
    text: e.text,
    offset: e.offset,
    line: file.position(e.offset).line,
    sha256: sha256Hex(e.text),
  }));
  const loaded = loadedEntries(entries);
  return { file: file.path, chars: storeChars(loaded), maxChars, entries, loadedEntries: loaded.length };
}

/**
 * Rewrites a store: drops some entries and replaces the text of others, leaving every other byte of
 * the file as it was (chunks are found exactly as Hermes splits them; each kept chunk keeps the
 * separator that preceded it, CRLF or not).
 */
export function rewriteStore(
  text: string,
  remove: ReadonlySet<number>,
  replace: ReadonlyMap<number, string>,
  bom = false,
): string {
  const chunks = storeChunks(text, bom);
  let out = '';
  let first = true;
  let entry = 0;
  chunks.forEach((c, i) => {
    if (c.text !== '') entry++;
    if (c.text !== '' && remove.has(entry)) return;
    const next = c.text !== '' ? replace.get(entry) : undefined;
    const body =
      next === undefined
        ? text.slice(c.start, c.end)
        : text.slice(c.start, c.entryStart) + pyStrip(next).text + text.slice(c.entryEnd, c.end);
    out += (first ? '' : text.slice(chunks[i - 1]!.end, c.start)) + body;
    first = false;
  });
  return out;
}
