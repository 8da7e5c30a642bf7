import type { IndexEntry } from '../../vault/model.js';
import { count } from '../../util/counters.js';
import { defineRule } from '../types.js';
import { linesConflict, mayConflict, subjectWords, viewLine, type LineConflict, type Viewed } from './contradiction.js';

/**
 * Each lost entry paired with the first loaded entry it contradicts (an inverted index on subject words: no
 * all-pairs scan). The loaded entries sharing a subject word are taken in order, with how many they share, and
 * only those `mayConflict` keeps go to the engine.
 */
export function lostCorrections(
  loaded: readonly IndexEntry[],
  lost: readonly IndexEntry[],
): { lost: IndexEntry; loaded: IndexEntry; conflict: LineConflict }[] {
  if (!lost.length || !loaded.length) return [];
  const views = loaded.map((e) => viewLine(e.text));
  const byWord = new Map<string, number[]>();
  views.forEach((v, i) => {
    for (const w of subjectWords(v)) (byWord.get(w) ?? byWord.set(w, []).get(w)!).push(i);
  });
  // Per loaded entry, the subject words it shares with the lost entry at hand (zero between entries).
  const shared = new Int32Array(loaded.length);
  const touched = new Int32Array(loaded.length);
  const out: { lost: IndexEntry; loaded: IndexEntry; conflict: LineConflict }[] = [];
  for (const e of lost) {
    const v: Viewed = viewLine(e.text);
    let n = 0;
    for (const w of subjectWords(v)) {
      const list = byWord.get(w);
      if (list) for (const i of list) if (shared[i]!++ === 0) touched[n++] = i;
    }
    const candidates = touched.subarray(0, n).sort();
    let found = false;
    for (let c = 0; c < n; c++) {
      const i = candidates[c]!;
      const common = shared[i]!;
      shared[i] = 0;
      if (found) continue;
      count('index.lostCorrectionPairs');
      if (!mayConflict(v, views[i]!, common)) continue;
      count('index.lostCorrectionCompared');
      const conflict = linesConflict(v, views[i]!);
      if (conflict) {
        out.push({ lost: e, loaded: loaded[i]!, conflict });
        found = true;
      }
    }
  }
  return out;
}

export default defineRule({
  id: 'index/lost-correction',
  meta: {
    description: 'An index line past the cut contradicts or corrects a line the harness still loads.',
    severity: 'warning',
    tags: ['index', 'budget', 'contradiction'],
    kinds: ['claude'],
    docs: {
      why: 'Corrections are usually appended at the bottom, which is the first part the cut drops: the agent loads the old statement and never sees the fix (Claude Code issue #92998).',
      fix: 'Fix the loaded line itself (or delete it), and drop or merge the correction, instead of appending corrections to an index past its budget.',
    },
    messages: {
      lost: 'line {line} ("{lostText}") is past the cut and contradicts line {loadedLine}, which the agent still loads ({detail})',
    },
  },
  // A file rule on the index alone: what it finds depends only on the index's text and the budget in
  // config (not on other notes), so `check --cache` reuses it while the index's bytes are unchanged
  // instead of running the conflict engine over every lost line again.
  checkFile(file, { vault, report }) {
    const info = vault.indexInfo;
    if (file !== vault.index || !info || !info.truncated || !info.lostEntries.length) return;
    const cut = info.cutLine ?? Infinity;
    const loaded = info.entries.filter((e) => e.line < cut);
    for (const c of lostCorrections(loaded, info.lostEntries)) {
      report({
        messageId: 'lost',
        file: vault.index,
        line: c.lost.line,
        column: 1,
        data: {
          line: c.lost.line,
          loadedLine: c.loaded.line,
          lostText: c.lost.text.trim().slice(0, 80),
          loadedText: c.loaded.text.trim(),
          detail: c.conflict.detail,
          kind: c.conflict.kind,
        },
        related: [
          {
            file: info.file,
            line: c.loaded.line,
            column: 1,
            message: 'still loaded: the statement the lost line corrects',
          },
        ],
      });
    }
  },
});
