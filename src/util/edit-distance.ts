/** Levenshtein distance for did-you-mean (vault links, CLI flags): one home, src/util (issue 17's layer rule). */
import { count } from './counters.js';

/** Levenshtein distance, stopping early past `max` (then `max + 1`). One pair of rows reused for every call. */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
export function editDistance(a: string, b: string, max: number): number {
  count('resolve.editDistance');
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = b.length;
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
  }
  let prev = rowA,
    cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      const v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}
