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
  if (a.length > 0 && a.length <= 32) {
    const d = bitParallel(a, b, max);
    return d <= max ? d : cap;
  }
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

/** Per UTF-16 unit: the positions where it occurs in `pattern` (bit i: pattern[i]); zero for any other unit. */
const PEQ = new Int32Array(65536);
let pattern = '';

/**
 * The Levenshtein distance of a pattern of 1 to 32 units and a text, through bit vectors (Myers 1999, in
 * Hyyrö's form for the whole-string distance): one column of the table per unit of `b`, its 32 vertical
 * differences held in two words. Stops once the distance must exceed `max` (returns something above it);
 * exact otherwise. The pattern's table is kept for the next call with the same pattern (did-you-mean
 * measures one target against many stems).
 */
function bitParallel(a: string, b: string, max: number): number {
  const m = a.length;
  if (a !== pattern) {
    for (let i = 0; i < pattern.length; i++) PEQ[pattern.charCodeAt(i)] = 0;
    for (let i = 0; i < m; i++) PEQ[a.charCodeAt(i)]! |= 1 << i;
    pattern = a;
  }
  const high = 1 << (m - 1);
  let pv = -1,
    mv = 0,
    score = m;
  const n = b.length;
  for (let j = 0; j < n; j++) {
    const eq = PEQ[b.charCodeAt(j)]!;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & high) score++;
    else if (mh & high) score--;
    // The last row can fall by one per remaining column at most.
    if (score - (n - 1 - j) > max) return max + 1;
    ph = (ph << 1) | 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return score;
}
