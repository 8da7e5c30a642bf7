/**
 * What a merge would lose: the sentences (and code blocks, table rows) of a retired note or Hermes entry
 * that the note kept in its place does not already say. Near-duplicate means "mostly the same", not "the
 * same": "never run npm install or npm ci" in a retired note is a fact the kept note's "never run npm
 * install" lacks. Consolidate carries such units into the kept note's merged body, so approving a merge
 * loses no text; the reviewer sees the merged body and can edit it.
 *
 * A unit is held when the kept text has a sentence holding every one of its words (a reordered or
 * shortened copy), or when every word pair of it occurs in the kept text. Strict on purpose: a carried
 * sentence costs the reviewer a glance; a dropped one is a lost fact.
 */
import type { VaultFile } from '../vault/model.js';
import { sentences, shingles, STOPWORDS, tokens } from './text.js';

export type BodyView = Pick<VaultFile, 'text' | 'bodyOffset' | 'codeRanges' | 'position'>;

interface Unit {
  readonly text: string;
  readonly offset: number;
}

/** The body's units in order: prose sentences (as `sentences()` cleans them), multi-line code blocks and
 *  table rows as written. */
export function units(view: BodyView): Unit[] {
  const out: Unit[] = sentences(view).map((s) => ({ text: s.text, offset: s.offset }));
  for (const [s, e] of view.codeRanges) {
    if (s >= view.bodyOffset && view.text.slice(s, e).includes('\n'))
      out.push({ text: view.text.slice(s, e).replace(/\s+$/, ''), offset: s });
  }
  const re = /^[ \t]*\|.*\|[ \t]*\r?$/gm;
  re.lastIndex = view.bodyOffset;
  for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
    if (!/^[\s|:-]+$/.test(m[0])) out.push({ text: m[0].replace(/\r$/, '').trim(), offset: m.index });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

const content = (text: string): string[] => tokens(text).filter((t) => !STOPWORDS.has(t));

/** Holds what a kept text says, for `isHeld`. */
export interface KeptView {
  readonly pairs: Set<string>;
  readonly sentences: Set<string>[];
}

export function keptView(view: BodyView): KeptView {
  return {
    pairs: shingles(tokens(view.text.slice(view.bodyOffset))),
    sentences: units(view).map((u) => new Set(content(u.text))),
  };
}

export function isHeld(unit: string, kept: KeptView): boolean {
  const words = content(unit);
  if (words.length === 0) return true;
  let allPairs = true;
  for (const s of shingles(tokens(unit)))
    if (!kept.pairs.has(s)) {
      allPairs = false;
      break;
    }
  if (allPairs) return true;
  return kept.sentences.some((k) => words.every((w) => k.has(w)));
}

/**
 * The units of each retired text that neither the kept text nor a unit carried before it holds, in order:
 * `[{ from, units }]` for the retired texts that have any.
 */
export function unheldUnits(
  kept: BodyView,
  retired: readonly { readonly from: string; readonly view: BodyView }[],
): { from: string; units: string[] }[] {
  const held = keptView(kept);
  const out: { from: string; units: string[] }[] = [];
  for (const r of retired) {
    const carried: string[] = [];
    for (const u of units(r.view)) {
      if (isHeld(u.text, held)) continue;
      carried.push(u.text);
      for (const s of shingles(tokens(u.text))) held.pairs.add(s);
      held.sentences.push(new Set(content(u.text)));
    }
    if (carried.length) out.push({ from: r.from, units: carried });
  }
  return out;
}

/** The kept body, then one line per carried unit after a blank line. */
export function mergedBody(kept: BodyView, carried: readonly { readonly units: readonly string[] }[]): string {
  const body = kept.text.slice(kept.bodyOffset).replace(/\s+$/, '');
  const extra = carried.flatMap((c) => c.units);
  return `${body}${body ? '\n\n' : ''}${extra.join('\n')}\n`;
}
