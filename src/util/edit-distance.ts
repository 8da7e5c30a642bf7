/** Levenshtein distance for did-you-mean (vault links, CLI flags): one home, src/util (issue 17's layer rule). */
import { count } from './counters.js';

/**
 * Levenshtein distance when it is at most `max`, else `max + 1`. Only the band of cells within
 * `max` of the diagonal is computed (a cell farther out is more than `max`), each clamped to
 * `max + 1` (a cell at most `max` is exact: it comes from neighbours at most `max`), and the work
 * stops once a whole row is past `max`. One pair of rows reused for every call.
 */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
export function editDistance(a: string, b: string, max: number): number {
  count('resolve.editDistance');
  const cap = max + 1;
  if (Math.abs(a.length - b.length) > max) return cap;
  const m = b.length;
  if (rowA.length <= m + 1) {
    rowA = new Int32Array(m + 2);
    rowB = new Int32Array(m + 2);
  }
  let prev = rowA,
    cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : cap;
  for (let i = 1; i <= a.length; i++) {
    const from = i - max > 1 ? i - max : 1,
      to = i + max < m ? i + max : m;
    cur[0] = i <= max ? i : cap;
    cur[from - 1] = from > 1 ? cap : cur[0]!;
    let best = cur[from - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      let v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      if (v > cap) v = cap;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (to < m) cur[to + 1] = cap;
    if (best > max) return cap;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]! <= max ? prev[m]! : cap;
}
