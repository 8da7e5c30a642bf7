/**
 * What the memory/… rules judge: each note's body, or each entry of a Hermes store, with the code
 * ranges the vault scan found in it (a store is not scanned at load: it is scanned here, once).
 */
import { splitEntries } from '../../vault/hermes.js';
import type { VaultFile } from '../../vault/model.js';
import { scanMarkdown } from '../../vault/scan.js';
import { isReadable } from '../reachability.js';

export interface Unit {
  readonly file: VaultFile;
  /** The note's path, or `MEMORY.md#3` for a store entry (as consolidate names it). */
  readonly label: string;
  /** [start, end) in file.text. */
  readonly start: number;
  readonly end: number;
  /** Code ranges (clipped) that lie in [start, end). */
  readonly codeRanges: readonly (readonly [number, number])[];
}

function clip(ranges: readonly (readonly [number, number])[], start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of ranges) if (e > start && s < end) out.push([Math.max(s, start), Math.min(e, end)]);
  return out;
}

export function unitsOf(file: VaultFile): Unit[] {
  if (!isReadable(file)) return [];
  if (file.role === 'note')
    return [{ file, label: file.path, start: file.bodyOffset, end: file.text.length, codeRanges: file.codeRanges }];
  if (file.role !== 'hermes-store') return [];
  const code = scanMarkdown(file.text, 0).codeRanges;
  return splitEntries(file.text).map((e, i) => ({
    file,
    label: `${file.path}#${i + 1}`,
    start: e.offset,
    end: e.offset + e.text.length,
    codeRanges: clip(code, e.offset, e.offset + e.text.length),
  }));
}

export interface UnitLine {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The lines of a unit, without their line breaks. */
export function linesOf(u: Unit): UnitLine[] {
  const out: UnitLine[] = [];
  const text = u.file.text;
  let pos = u.start;
  while (pos < u.end) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 || nl > u.end ? u.end : nl;
    const raw = text.slice(pos, end);
    out.push({ start: pos, end, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
    pos = end + 1;
  }
  return out;
}
