/**
 * store-overflow: a Hermes store over its budget (or within its near-budget band). Which entries to
 * move out so it fits with headroom: exact duplicates first, then near duplicates (the shorter of a
 * pair), then the oldest entries (Hermes appends, so the first entries are the oldest). Moved
 * entries are kept in the holding folder by apply, as every retired entry is; undo restores them.
 */
import { hermesChars, rewriteStore } from '../../vault/hermes.js';
import { entryRef, parseEntryPath } from '../../proposal/refs.js';
import { defineStage, type ItemDraft } from '../stage.js';

/** Similarity above which two entries say the same thing (the near-duplicate stage's pairs, strict end). */
const NEAR = { jaccard: 0.6, containment: 0.85 };
const normalize = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

export const storeOverflow = defineStage({
  id: 'store-overflow',
  description: 'Hermes stores over budget: which entries move out (exact duplicates, then near duplicates, then the oldest) so the store fits with headroom.',
  run(ctx) {
    const { vault } = ctx;
    const items: ItemDraft[] = [];
    // Fits with the same headroom an index is given.
    const target = (max: number): number => Math.floor(max * vault.config.index.headroom);
    for (const store of vault.stores) {
      // Only a store past its budget (the near-budget band is hermes/near-budget's to report).
      if (store.chars <= store.maxChars) continue;
      const file = vault.byPath.get(store.file)!;
      const remove = new Set<number>();
      const why = new Map<number, string>();
      /** Entries that stay as the copy of one that moves out: never moved as "oldest". */
      const keepers = new Set<number>();
      const charsAfter = (): number => hermesChars(rewriteStore(file.text, remove, new Map()));
      const take = (n: number, reason: string): boolean => {
        if (remove.has(n) || charsAfter() <= target(store.maxChars)) return false;
        remove.add(n);
        why.set(n, reason);
        return true;
      };
      // 1. Exact duplicates (white space and case aside): the earlier copy goes, the latest stays.
      const last = new Map<string, number>();
      for (const e of store.entries) last.set(normalize(e.text), e.index);
      for (const e of store.entries) { const l = last.get(normalize(e.text))!; if (l !== e.index && take(e.index, `same text as entry ${l}`)) keepers.add(l); }
      // 2. Near duplicates: of a pair, the shorter entry goes (the longer one says at least as much).
      const index = new Map(ctx.notes.map((n, i) => [i, parseEntryPath(n.path)]));
      const near = ctx.pairs
        .filter((p) => p.jaccard >= NEAR.jaccard || p.containment >= NEAR.containment)
        .map((p) => ({ a: index.get(p.a), b: index.get(p.b), score: Math.max(p.jaccard, p.containment) }))
        .filter((p) => p.a && p.b && p.a.file === store.file && p.b.file === store.file)
        .sort((x, y) => y.score - x.score);
      for (const p of near) {
        const [a, b] = [store.entries[p.a!.entry - 1]!, store.entries[p.b!.entry - 1]!];
        if (remove.has(a.index) || remove.has(b.index)) continue;
        const [short, long] = a.text.length <= b.text.length ? [a, b] : [b, a];
        if (keepers.has(short.index)) continue;
        if (take(short.index, `near duplicate of entry ${long.index} (similarity ${p.score.toFixed(2)})`)) keepers.add(long.index);
      }
      // Duplicates move out: the kept copy still says what they said, so approving this loses no fact.
      const dupes = [...remove].sort((a, b) => a - b);
      const afterDupes = charsAfter();
      if (dupes.length) {
        items.push({
          kind: 'store-overflow',
          paths: dupes.map((n) => entryRef(store.file, n)),
          evidence: {
            file: store.file, chars: store.chars, maxChars: store.maxChars, target: target(store.maxChars), kept: store.entries.length - dupes.length, charsAfter: afterDupes, fits: afterDupes <= store.maxChars,
            entries: dupes.map((n) => ({ entry: n, why: why.get(n), text: store.entries[n - 1]!.text.replace(/\s+/g, ' ').slice(0, 100) })),
          },
          suggestion: 'retire',
          action: { type: 'retire', retire: dupes.map((n) => entryRef(store.file, n)) },
        });
      }
      // 3. Still too large: the oldest entries are what Hermes would evict, but an old entry can be the
      // user's name or the core setup. Never retired on approval: a person decides (review, no change).
      const dupeSet = new Set(dupes);
      // A store with one entry (no `§` separators) has no oldest entry to name: the whole store is one.
      if (store.entries.length > 1) for (const e of store.entries) if (!keepers.has(e.index)) take(e.index, 'oldest entry: move it to an archive, merge it into another entry, or shorten it');
      const oldest = [...remove].filter((n) => !dupeSet.has(n)).sort((a, b) => a - b);
      if (oldest.length === 0) continue;
      const after = charsAfter();
      items.push({
        kind: 'store-overflow',
        paths: oldest.map((n) => entryRef(store.file, n)),
        evidence: {
          file: store.file, chars: afterDupes, maxChars: store.maxChars, target: target(store.maxChars), charsIfMoved: after,
          entries: oldest.map((n) => ({ entry: n, why: why.get(n), text: store.entries[n - 1]!.text.replace(/\s+/g, ' ').slice(0, 100) })),
        },
        suggestion: 'review',
        action: { type: 'keep' },
        // Age is not value (the oldest entries hold the user's name and core setup): a person decides.
        info: 'the oldest entries are what Hermes would evict first; age is not value, so this only shows what would have to go for the store to fit',
      });
    }
    return items;
  },
});
