/** Hermes-style stores: entries separated by a line holding only `§`, measured as Hermes does. */
import { sha256Hex } from '../util/digest.js';
import type { HermesEntry, HermesStore, VaultFile } from './model.js';

export const ENTRY_SEPARATOR = '\n§\n';

/** A line holding only `§` (a CRLF one too: hermes/shape reports that Hermes will not split on it). */
export function hasSeparatorLine(text: string): boolean {
  return /(^|\n)§\r?(\n|$)/.test(text);
}

/** Character count as Hermes (Python) measures it: code points of the stripped entries joined. */
export function hermesChars(text: string): number {
  const joined = splitEntries(text).map((e) => e.text).join(ENTRY_SEPARATOR);
  let n = 0;
  for (const _ of joined) n++;
  return n;
}

export function splitEntries(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let start = 0;
  for (;;) {
    const at = text.indexOf(ENTRY_SEPARATOR, start);
    const chunk = text.slice(start, at === -1 ? undefined : at);
    const stripped = chunk.trim();
    if (stripped !== '') out.push({ text: stripped, offset: start + chunk.indexOf(stripped) });
    if (at === -1) break;
    start = at + ENTRY_SEPARATOR.length; // non-overlapping, like Python str.split
  }
  return out;
}


export function readStore(file: VaultFile, maxChars: number): HermesStore {
  const entries: HermesEntry[] = splitEntries(file.text).map((e, i) => ({
    index: i + 1,
    text: e.text,
    offset: e.offset,
    line: file.position(e.offset).line,
    sha256: sha256Hex(e.text),
  }));
  return { file: file.path, chars: hermesChars(file.text), maxChars, entries };
}

/**
 * Rewrites a store: drops some entries and replaces the text of others, leaving every other byte of
 * the file as it was (chunks are split and re-joined exactly as Hermes splits them).
 */
export function rewriteStore(text: string, remove: ReadonlySet<number>, replace: ReadonlyMap<number, string>): string {
  const chunks = text.split(ENTRY_SEPARATOR);
  const kept: string[] = [];
  let entry = 0;
  for (const chunk of chunks) {
    const stripped = chunk.trim();
    if (stripped === '') { kept.push(chunk); continue; }
    entry++;
    if (remove.has(entry)) continue;
    const next = replace.get(entry);
    kept.push(next === undefined ? chunk : chunk.replace(stripped, () => next.trim()));
  }
  return kept.join(ENTRY_SEPARATOR);
}

/** `MEMORY.md#3` → the store file and the entry number. */
export function parseEntryPath(path: string): { file: string; entry: number } | null {
  const m = /^(.+\.md)#(\d+)$/i.exec(path);
  return m ? { file: m[1]!, entry: Number(m[2]) } : null;
}
