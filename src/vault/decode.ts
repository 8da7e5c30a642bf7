/** Turning a file's bytes into text without hiding problems, and offsets into line/column. */
import { isAscii, isUtf8 } from 'node:buffer';

export type DecodeProblemKind = 'invalid-utf8' | 'binary' | 'too-large';

export interface DecodeProblem {
  readonly kind: DecodeProblemKind;
  /** Offset into the decoded text where the problem starts (0 for binary / too-large). */
  readonly offset: number;
  readonly detail: string;
}

export interface DecodedText {
  /** The text with a leading BOM removed. Invalid UTF-8 sequences become U+FFFD. */
  readonly text: string;
  readonly bom: boolean;
  readonly problem: DecodeProblem | null;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  const at = Buffer.prototype.indexOf.call(bytes, 0);
  return at !== -1 && at < 8000;
}

/** Byte offset of the first invalid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i; // truncated sequence at the end
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export function decodeBytes(bytes: Uint8Array): DecodedText {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  if (looksBinary(body)) {
    return { text: '', bom, problem: { kind: 'binary', offset: 0, detail: 'contains NUL bytes' } };
  }
  try {
    return { text: strictDecoder.decode(body), bom, problem: null };
  } catch {
    const bad = firstInvalidUtf8(body);
    const at = bad < 0 ? 0 : bad;
    const prefix = lossyDecoder.decode(body.subarray(0, at));
    const byte = body[at];
    return {
      text: lossyDecoder.decode(body),
      bom,
      problem: {
        kind: 'invalid-utf8',
        offset: prefix.length,
        detail: `invalid UTF-8 byte 0x${(byte ?? 0).toString(16).padStart(2, '0')} at byte ${at + (bom ? 3 : 0)}`,
      },
    };
  }
}

/** How many bytes of files are decoded as one text (`decodeMany`); a file over a quarter of it is decoded alone. */
export const DECODE_GROUP = 1 << 20;
let groups: readonly [Buffer, Buffer] | null = null;
/** What follows each file's bytes in a group (U+0001: a file holding it is decoded alone). */
const SEPARATOR = 0x01;
const holds = (bytes: Uint8Array, byte: number): boolean => Buffer.prototype.indexOf.call(bytes, byte) !== -1;

/**
 * The texts of many files' bytes, each the text `decodeBytes` gives, for the bytes that decode without a problem
 * and hold no BOM, no NUL and no U+0001 byte (undefined for any other: decode it alone). Files are decoded in groups,
 * the bytes of up to `DECODE_GROUP` copied after one another with a U+0001 after each (`SEPARATOR`: a NUL would make
 * V8 search a two-byte text one character at a time; 0x01 is found by memchr), and each file's text is a slice of
 * its group's text: a text over 128 KB is allocated where the garbage collector never copies it, and a slice is a
 * few bytes, where a text of its own is copied twice by the young generation's collector (at hard 10k, ~100 MB of
 * text that all survives). ASCII and other bytes are grouped apart, so an ASCII text stays one byte a character.
 */
export function decodeMany(list: readonly Uint8Array[]): (string | undefined)[] {
  const out = new Array<string | undefined>(list.length).fill(undefined);
  const scratch = (groups ??= [Buffer.allocUnsafe(DECODE_GROUP), Buffer.allocUnsafe(DECODE_GROUP)]);
  const pending: [number[], number[]] = [[], []];
  const used: [number, number] = [0, 0];
  const flush = (g: 0 | 1): void => {
    const files = pending[g];
    if (files.length === 0) return;
    let whole: string;
    try {
      whole = strictDecoder.decode(scratch[g].subarray(0, used[g]));
    } catch {
      whole = ''; // never (every file is valid UTF-8): its files are decoded alone
    }
    let at = 0;
    for (const k of files) {
      const end = whole.indexOf('\u0001', at);
      if (end === -1) break;
      out[k] = whole.slice(at, end);
      at = end + 1;
    }
    pending[g] = [];
    used[g] = 0;
  };
  for (let k = 0; k < list.length; k++) {
    const b = list[k]!;
    const bom = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
    if (b.length > DECODE_GROUP >> 2 || bom || holds(b, 0) || holds(b, SEPARATOR) || !isUtf8(b)) continue;
    const g = isAscii(b) ? 0 : 1;
    if (used[g] + b.length + 1 > DECODE_GROUP) flush(g);
    scratch[g].set(b, used[g]);
    used[g] += b.length;
    scratch[g][used[g]++] = SEPARATOR;
    pending[g].push(k);
  }
  flush(0);
  flush(1);
  return out;
}

/** Start offset of every line ("\n" separated; a "\r" before it belongs to the line). */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

/** Whether a line of the text ends with "\r\n", read at its line starts (`computeLineStarts`): `text.includes('\r\n')`. */
export function hasCrlf(text: string, lineStarts: readonly number[]): boolean {
  for (let k = 1; k < lineStarts.length; k++) if (text.charCodeAt(lineStarts[k]! - 2) === 13) return true;
  return false;
}

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** The 0-based line holding a text offset: the last line start at or before it (binary search). */
export function lineIndexAt(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** 1-based line and column (UTF-16 code units, SARIF's default) of a text offset. */
export function positionAt(lineStarts: readonly number[], offset: number): Position {
  const lo = lineIndexAt(lineStarts, offset);
  return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
}
