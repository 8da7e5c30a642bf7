/**
 * store-overflow: a Hermes store over its budget. A plan that makes it fit with headroom, in steps
 * a person can approve one by one (no two items touch the same entry):
 *   1. exact duplicates (white space and case aside): the earlier copy goes, the latest stays;
 *   2. true near duplicates: the shorter entry merges into the longer one, and the merged text keeps
 *      every sentence the shorter one had that the longer one lacks (no fact is lost);
 *   3. still too large: entries move, byte for byte, into the store's archive (`MEMORY-archive.md`
 *      beside `MEMORY.md`: a file in the vault Hermes never loads), the oldest first, and rules,
 *      warnings and user preferences only after every other entry.
 * Sizes are counted as Hermes counts them (hermesChars: code points of the entries it loads).
 * Every retired or moved entry is also kept in apply's holding folder; undo restores the bytes.
 */
import { entryRef, parseEntryPath } from '../../proposal/refs.js';
import { differsInDigitsOrNegation, SIMILAR } from '../../similarity/features.js';
import { THRESHOLDS } from '../../similarity/score.js';
import { type BodyView, unheldUnits, units } from '../../similarity/held.js';
import { codePoints, hermesChars, rewriteStore } from '../../vault/hermes.js';
import type { HermesEntry } from '../../vault/model.js';
import { defineStage, type ItemDraft } from '../stage.js';
import { RULE_LINE } from './index-overflow.js';

const normalize = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();
/** What the user likes or wants: with rules and warnings, the last to move out. */
const PREFERENCE =
  /\b(prefers?|preferred|preferences?|likes?|dislikes?|wants?|hates?|favou?rite|expects?)\b|喜欢|偏好|希望/i;
/** The store's archive: beside the store, a file Hermes never loads, so it costs no budget. */
export const archiveOf = (store: string): string => store.replace(/\.md$/i, '-archive.md');
/** A store keeps at least this many entries: fewer is not a store any more (and it keeps its `§` lines). */
const MIN_KEPT = 2;

const preview = (t: string): string => t.replace(/\s+/g, ' ').slice(0, 100);

export const storeOverflow = defineStage({
  id: 'store-overflow',
  description:
    "Hermes stores over budget: exact duplicates, then near duplicates merged without losing a sentence, then the oldest entries (rules, warnings and preferences last) moved to the store's archive, until the store fits with headroom.",
  run(ctx) {
    const { vault } = ctx;
    const items: ItemDraft[] = [];
    const noteIndex = new Map(ctx.notes.map((n, i) => [n.path, i]));
    for (const store of vault.stores) {
      // Only a store past its budget (the near-budget band is hermes/near-budget's to report); a store
      // of one entry (no `§` lines) has nothing to merge or move: hermes/entry-too-large says so.
      if (store.chars <= store.maxChars || store.entries.length < 2) continue;
      const file = vault.byPath.get(store.file)!;
      const target = Math.floor(store.maxChars * vault.config.index.headroom);
      const remove = new Set<number>();
      const replace = new Map<number, string>();
      const charsNow = (): number => hermesChars(rewriteStore(file.text, remove, replace, file.bom), file.bom);
      const fits = (): boolean => charsNow() <= target;
      /** Entries one item already acts on: no other item touches them. */
      const touched = new Set<number>();
      const base = {
        file: store.file,
        units: 'characters (code points of the entries Hermes loads, joined by "\\n§\\n")',
        maxChars: store.maxChars,
        target,
      };

      // 1. Exact duplicates: the earlier copy goes; the latest stays.
      const last = new Map<string, number>();
      for (const e of store.entries) last.set(normalize(e.text), e.index);
      const dupes: { entry: number; why: string }[] = [];
      const before1 = charsNow();
      for (const e of store.entries) {
        const l = last.get(normalize(e.text))!;
        if (l === e.index || fits()) continue;
        remove.add(e.index);
        touched.add(e.index).add(l);
        dupes.push({ entry: e.index, why: `same text as entry ${l}` });
      }
      if (dupes.length) {
        const after = charsNow();
        items.push({
          kind: 'store-overflow',
          paths: dupes.map((d) => entryRef(store.file, d.entry)),
          evidence: {
            ...base,
            step: 'exact duplicates',
            chars: before1,
            charsAfter: after,
            saves: before1 - after,
            fits: after <= store.maxChars,
            entries: dupes.map((d) => ({ ...d, text: preview(store.entries[d.entry - 1]!.text) })),
          },
          suggestion: 'retire',
          action: { type: 'retire', retire: dupes.map((d) => entryRef(store.file, d.entry)) },
        });
      }

      // 2. Near duplicates: the shorter entry merges into the longer, keeping its missing sentences.
      const near = ctx.pairs
        .filter((p) => p.jaccard >= THRESHOLDS.duplicate || p.containment >= THRESHOLDS.entryContained)
        .map((p) => ({
          p,
          a: parseEntryPath(ctx.notes[p.a]!.path),
          b: parseEntryPath(ctx.notes[p.b]!.path),
          score: Math.max(p.jaccard, p.containment),
        }))
        .filter((x) => x.a?.file === store.file && x.b?.file === store.file)
        .filter(
          (x) =>
            !differsInDigitsOrNegation(ctx.features[x.p.a]!.tokens(), ctx.features[x.p.b]!.tokens(), {
              sameStatement: x.p.jaccard >= SIMILAR.jaccard,
            }),
        )
        .sort((x, y) => y.score - x.score || x.a!.entry - y.a!.entry || x.b!.entry - y.b!.entry);
      for (const x of near) {
        if (fits()) break;
        const [a, b] = [store.entries[x.a!.entry - 1]!, store.entries[x.b!.entry - 1]!];
        if (touched.has(a.index) || touched.has(b.index)) continue;
        const [short, long] = a.text.length <= b.text.length ? [a, b] : [b, a];
        const viewOf = (e: HermesEntry): BodyView => ctx.notes[noteIndex.get(entryRef(store.file, e.index))!]!;
        const merged = mergedText(long, viewOf(long), viewOf(short));
        if (merged === null) continue;
        const { body, added } = merged;
        const before = charsNow();
        remove.add(short.index);
        if (body !== long.text) replace.set(long.index, body);
        const after = charsNow();
        if (after >= before) {
          remove.delete(short.index);
          replace.delete(long.index);
          continue;
        }
        touched.add(short.index).add(long.index);
        items.push({
          kind: 'store-overflow',
          paths: [entryRef(store.file, long.index), entryRef(store.file, short.index)],
          evidence: {
            ...base,
            step: 'near duplicates',
            chars: before,
            charsAfter: after,
            saves: before - after,
            fits: after <= store.maxChars,
            similarity: x.score,
            jaccard: x.p.jaccard,
            containment: x.p.containment,
            kept: { entry: long.index, text: preview(long.text) },
            merged: { entry: short.index, text: preview(short.text) },
            sentencesAdded: added,
          },
          suggestion: 'merge',
          action: {
            type: 'merge',
            into: entryRef(store.file, long.index),
            retire: [entryRef(store.file, short.index)],
            ...(body !== long.text ? { body } : {}),
          },
        });
      }

      // 3. Move out to the archive, byte for byte: the oldest first (Hermes appends, so the first entries
      // are the oldest); rules, warnings and user preferences only after every other entry.
      if (fits()) continue;
      const valued = (e: HermesEntry): boolean => RULE_LINE.test(e.text) || PREFERENCE.test(e.text);
      const order = store.entries
        .filter((e) => !touched.has(e.index) && !remove.has(e.index))
        .sort((x, y) => Number(valued(x)) - Number(valued(y)) || x.index - y.index);
      const before3 = charsNow();
      const moved: { entry: number; why: string }[] = [];
      for (const e of order) {
        if (fits() || store.entries.length - remove.size <= MIN_KEPT) break;
        remove.add(e.index);
        moved.push({
          entry: e.index,
          why: valued(e)
            ? 'a rule, warning or preference: moved only because the store does not fit without it'
            : 'oldest of the entries left',
        });
      }
      if (moved.length === 0) continue;
      const after3 = charsNow();
      const archive = archiveOf(store.file);
      const refs = moved.map((m) => entryRef(store.file, m.entry));
      items.push({
        kind: 'store-overflow',
        paths: [...refs, archive],
        evidence: {
          ...base,
          step: 'move to the archive',
          archive,
          archiveExists: vault.byPath.has(archive),
          chars: before3,
          charsAfter: after3,
          saves: before3 - after3,
          fits: after3 <= store.maxChars,
          entries: moved.map((m) => ({
            ...m,
            chars: codePoints(store.entries[m.entry - 1]!.text),
            text: preview(store.entries[m.entry - 1]!.text),
          })),
        },
        suggestion: 'retire',
        action: { type: 'retire', retire: refs, to: archive },
      });
    }
    return items;
  },
});

/**
 * The longer entry's text with every unit of the shorter one it does not hold appended (held.ts, the one
 * home of "what a merge would lose"), or null when the shorter entry holds text outside its units
 * (sentences, code blocks, table rows): merging could lose it.
 */
function mergedText(
  long: HermesEntry,
  longView: BodyView,
  shortView: BodyView,
): { body: string; added: number } | null {
  let rest = normalize(shortView.text.slice(shortView.bodyOffset));
  for (const u of units(shortView)) {
    const at = rest.indexOf(normalize(u.text));
    if (at === -1) return null;
    rest = rest.slice(0, at) + rest.slice(at + normalize(u.text).length);
  }
  // Every letter and digit of the shorter entry must be in one of its units.
  if (/[\p{L}\p{N}]/u.test(rest)) return null;
  const missing = unheldUnits(longView, [{ from: '', view: shortView }]).flatMap((c) => c.units);
  const body = missing.reduce((acc, u) => `${acc}${u.includes('\n') ? '\n' : ' '}${u}`, long.text);
  return { body, added: missing.length };
}
