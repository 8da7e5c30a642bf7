/** Where a link points: markdown links by path, wikilinks by stem, then name, then folded spelling. */
import { posix } from 'node:path';
import type { Resolution } from './model.js';
import type { ScannedLink } from './scan.js';

export interface Resolved {
  readonly resolved: string | null;
  readonly resolution: Resolution;
  readonly suggestion: string | null;
}

export interface NoteLookup {
  /** Markdown files that were read (notes and indexes). */
  readonly markdown: ReadonlySet<string>;
  /** Other files that exist in the vault. */
  readonly other: ReadonlySet<string>;
  readonly byStem: ReadonlyMap<string, string>;
  readonly byName: ReadonlyMap<string, string>;
  /** Built on first use: only a wikilink that matches no stem and no name needs it. */
  byFolded(): ReadonlyMap<string, string>;
}

const NON_ASCII = /[^\x00-\x7f]/;
export const fold = (s: string): string => (NON_ASCII.test(s) ? s.normalize('NFKC') : s).toLowerCase().replace(/[-_\s]+/g, '-');

export function buildLookup(notes: readonly { path: string; stem: string; name: string | null }[], markdown: Iterable<string>, other: Iterable<string>): NoteLookup {
  const byStem = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const n of notes) {
    if (!byStem.has(n.stem)) byStem.set(n.stem, n.path);
    if (n.name && !byName.has(n.name)) byName.set(n.name, n.path);
  }
  let folded: Map<string, string> | null = null;
  const byFolded = (): ReadonlyMap<string, string> => {
    if (folded) return folded;
    folded = new Map();
    for (const n of notes) {
      const s = fold(n.stem);
      if (!folded.has(s)) folded.set(s, n.path);
      if (n.name) {
        const f = fold(n.name);
        if (!folded.has(f)) folded.set(f, n.path);
      }
    }
    return folded;
  };
  return { markdown: new Set(markdown), other: new Set(other), byStem, byName, byFolded };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
/** A path that posix.normalize() would return unchanged: no '.', '..' or empty segment. */
const isSimple = (p: string): boolean => p !== '' && !p.startsWith('/') && !p.endsWith('/') && !p.includes('//') && !DOT_SEGMENT.test(p);

function safeDecode(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}

/** A markdown link, definition or backticked mention, relative to the file that holds it. */
export function resolvePath(fromPath: string, target: string, lookup: NoteLookup, vaultRoot: string): Resolved {
  const raw = target.trim();
  if (raw === '' || raw.startsWith('#') || SCHEME.test(raw) || raw.startsWith('//')) return { resolved: null, resolution: 'external', suggestion: null };
  let clean = safeDecode(raw.replace(/[?#].*$/, ''));
  if (clean.startsWith('~')) return { resolved: null, resolution: 'outside', suggestion: null };
  if (clean.startsWith('/')) {
    const rootPosix = vaultRoot.split('\\').join('/');
    if (!clean.startsWith(rootPosix + '/')) return { resolved: null, resolution: 'outside', suggestion: null };
    clean = clean.slice(rootPosix.length + 1);
  } else if (fromPath.includes('/')) {
    clean = posix.join(posix.dirname(fromPath), clean);
  }
  const normal = isSimple(clean) ? clean : posix.normalize(clean);
  if (normal === '..' || normal.startsWith('../')) return { resolved: null, resolution: 'outside', suggestion: null };
  if (lookup.markdown.has(normal)) return { resolved: normal, resolution: 'path', suggestion: null };
  if (lookup.other.has(normal)) {
    return { resolved: normal, resolution: normal.toLowerCase().endsWith('.md') ? 'path' : 'not-markdown', suggestion: null };
  }
  if (!normal.toLowerCase().endsWith('.md')) return { resolved: null, resolution: 'not-markdown', suggestion: null };
  const stem = normal.slice(normal.lastIndexOf('/') + 1, -3);
  const near = lookup.byFolded().get(fold(stem)) ?? closestPath(stem, lookup);
  return { resolved: null, resolution: 'missing', suggestion: near };
}

export function resolveWikilink(target: string, lookup: NoteLookup): Resolved {
  const t = target.replace(/\.md$/i, '').trim();
  const byStem = lookup.byStem.get(t) ?? (t.includes('/') ? (lookup.markdown.has(`${t}.md`) ? `${t}.md` : undefined) : undefined);
  if (byStem) return { resolved: byStem, resolution: 'stem', suggestion: null };
  const byName = lookup.byName.get(t);
  if (byName) return { resolved: byName, resolution: 'name', suggestion: null };
  const folded = lookup.byFolded().get(fold(t));
  if (folded) return { resolved: folded, resolution: 'folded', suggestion: null };
  return { resolved: null, resolution: 'missing', suggestion: closest(t, lookup) };
}

export function resolveLink(fromPath: string, link: ScannedLink, lookup: NoteLookup, vaultRoot: string): Resolved {
  if (link.kind === 'wikilink') return resolveWikilink(link.target, lookup);
  if (link.kind === 'mention') {
    // `feedback_x.md` in prose names a note relative to the vault, or relative to the file.
    const rel = resolvePath(fromPath, link.target, lookup, vaultRoot);
    if (rel.resolved) return rel;
    const fromRoot = resolvePath('', link.target, lookup, vaultRoot);
    if (fromRoot.resolved) return fromRoot;
    const byStem = lookup.byStem.get(link.target.slice(link.target.lastIndexOf('/') + 1, -3));
    return byStem ? { resolved: byStem, resolution: 'path', suggestion: null } : rel;
  }
  return resolvePath(fromPath, link.target, lookup, vaultRoot);
}

/** Levenshtein distance, stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

function closestPath(stem: string, lookup: NoteLookup): string | null {
  const best = closest(stem, lookup);
  return best === null ? null : (lookup.byStem.get(best) ?? null);
}

function closest(target: string, lookup: NoteLookup): string | null {
  const t = fold(target);
  const max = Math.max(2, Math.floor(t.length / 4));
  let best: string | null = null;
  let bestD = max + 1;
  for (const stem of lookup.byStem.keys()) {
    const d = editDistance(t, fold(stem), max);
    if (d < bestD || (d === bestD && best !== null && stem < best)) { bestD = d; best = stem; }
  }
  return best;
}
