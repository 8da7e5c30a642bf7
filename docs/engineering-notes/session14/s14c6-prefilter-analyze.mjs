// For each candidate pair of the contradictions stage: which claim kinds share a key; notes that survive.
import { loadBenchVault } from '/work/wt/s14c6/scripts/bench/in-process.mjs';
const { imp, notes } = await loadBenchVault('x');
const { noteFeatures, similarPairs, rareTermCounts } = await imp('similarity/features.js');
const { noteClauses, claimsOf } = await imp('similarity/conflict.js');
const { claimConflict, sharedFrames } = await imp('similarity/claims.js');
const features = noteFeatures(notes);
const spairs = similarPairs(features);
const n = features.length;
const maxDf = Math.max(2, Math.min(25, Math.ceil(n * 0.02)));
const cand = new Set();
for (const [key, c] of rareTermCounts(features, maxDf)) {
  const a = Math.floor(key / n), b = key % n;
  const sameType = features[a].note.meta.type === features[b].note.meta.type;
  if (c >= 3 || (c >= 2 && sameType)) cand.add(key);
}
for (const p of spairs) if (p.jaccard >= 0.2 || p.containment >= 0.4) cand.add(p.a * n + p.b);
const DATED = /(?:^|[^\d])20\d{2}[-_.]?\d{2}[-_.]?\d{2}(?:[^\d]|$)/;
const dated = features.map((f) => DATED.test(f.note.path));
const pairs = Array.from(Float64Array.from(cand).sort()).filter((k) => !dated[Math.floor(k / n)] && !dated[k % n]);
const compared = new Set();
for (const k of pairs) compared.add(Math.floor(k / n)).add(k % n);
const order = [...compared].sort((x, y) => x - y);
const slot = new Map(order.map((i, k) => [i, k]));
const t0 = process.cpuUsage();
const claims = new Map(order.map((i) => [i, claimsOf(noteClauses(features[i].note))]));
const d0 = process.cpuUsage(t0);
console.log('claims cpu ms', (d0.user + d0.system) / 1000, 'notes', order.length, 'pairs', pairs.length);
const onlyPos = (s) => s.pos >= 0 && s.neg < 0, onlyNeg = (s) => s.neg >= 0 && s.pos < 0;
const sig = new Map();
for (const [i, c] of claims) {
  const refused = new Set(), mention = new Set();
  for (const [t, s] of c.things) {
    mention.add(t);
    const multi = /\s/.test(t);
    if (multi) for (const w of t.split(/\s+/)) mention.add(w);
    if (onlyNeg(s)) { refused.add(t); if (multi) for (const w of t.split(/\s+/)) refused.add(w); }
  }
  for (const [w, s] of c.words) if (onlyNeg(s)) refused.add(w);
  const fh = new Set(c.frames.hash);
  const ff = new Map();
  const fr = c.frames;
  for (let f = 0; f < fr.hash.length; f++) { const h = fr.hash[f]; const w = fr.clauses[fr.clause[f]][fr.pos[f]]; let s2 = ff.get(h); if (!s2) ff.set(h, (s2 = new Set())); s2.add(w); }
  sig.set(i, { refused, mention, fh, ff });
}
const inter = (a, b) => { const [s, l] = a.size <= b.size ? [a, b] : [b, a]; for (const x of s) if (l.has(x)) return true; return false; };
const shared = sharedFrames(order.map((i) => claims.get(i).frames), pairs.map((k) => [slot.get(Math.floor(k / n)), slot.get(k % n)]));
let F0 = 0, V = 0, F = 0, R = 0, T = 0, any = 0, conflicts = 0, missed = 0;
const kinds = {};
const survivors = new Set();
for (const k of pairs) {
  const a = Math.floor(k / n), b = k % n;
  const ca = claims.get(a), cb = claims.get(b), sa = sig.get(a), sb = sig.get(b);
  const v = [...ca.values.keys()].some((x) => cb.values.has(x));
  const f0 = inter(sa.fh, sb.fh);
  let f = false;
  if (f0) for (const [h, ws] of sa.ff) { const wb = sb.ff.get(h); if (!wb) continue; for (const x of ws) for (const y of wb) if (x !== y) f = true; }
  F0 += f0;
  const r = [...ca.rules.keys()].some((x) => cb.rules.has(x));
  const t = inter(sa.refused, sb.mention) || inter(sb.refused, sa.mention);
  V += v; F += f; R += r; T += t;
  const pass = v || f || r || t;
  if (pass) { any++; survivors.add(a).add(b); }
  const c = claimConflict(ca, cb, shared);
  if (c) { conflicts++; const kk = c.kind + ':' + (v ? 'V' : '') + (f ? 'F' : '') + (r ? 'R' : '') + (t ? 'T' : ''); kinds[kk] = (kinds[kk] ?? 0) + 1; if (!pass) missed++; }
}
console.log({ F0, V, F, R, T, any, survivors: survivors.size, conflicts, missed, kinds });
