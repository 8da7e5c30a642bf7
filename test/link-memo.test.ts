// Link resolution at load (issue 14): `linkResolver` memoizes `resolveLink` per target (wikilinks) and per
// (folder, kind, target) (the rest), and `resolvePath` skips the decode and posix.join for plain targets.
// Both must answer exactly what the unmemoized, posix-based resolution answers, on inputs built to hit
// every branch: dot segments, absolute paths, escapes, queries, fragments, folders of every depth.
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, startCounting, stopCounting } from '../src/util/counters.js';
import { linkResolver } from '../src/vault/link-memo.js';
import { buildLookup, plainFolder, plainMention, resolveLink, type NoteLookup } from '../src/vault/resolve.js';

const notes = [
  { path: 'a/b.md', stem: 'b', name: 'bee' },
  { path: 'c.md', stem: 'c', name: null },
  { path: 'a/x/y.md', stem: 'y', name: null },
  { path: 'd e.md', stem: 'd e', name: null },
];
const lookup = buildLookup(notes, ['a/b.md', 'c.md', 'a/x/y.md', 'MEMORY.md', 'd e.md'], ['img.png', 'a/z.txt']);
const ROOT = '/root/v';

/** The resolution of a markdown path as it was written before the fast path: decode, posix.join, normalize. */
function reference(from: string, target: string, l: NoteLookup): { resolved: string | null; resolution: string } {
  const raw = target.trim();
  if (raw === '' || raw.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//'))
    return { resolved: null, resolution: 'external' };
  let clean = raw.replace(/[?#].*$/, '');
  try {
    clean = decodeURIComponent(clean);
  } catch {
    /* kept as written */
  }
  if (clean.startsWith('~')) return { resolved: null, resolution: 'outside' };
  if (clean.startsWith('/')) {
    if (!clean.startsWith(ROOT + '/')) return { resolved: null, resolution: 'outside' };
    clean = clean.slice(ROOT.length + 1);
  } else if (from.includes('/')) clean = posix.join(posix.dirname(from), clean);
  const normal = posix.normalize(clean);
  if (normal === '..' || normal.startsWith('../')) return { resolved: null, resolution: 'outside' };
  if (l.markdown.has(normal)) return { resolved: normal, resolution: 'path' };
  if (l.other.has(normal))
    return { resolved: normal, resolution: normal.toLowerCase().endsWith('.md') ? 'path' : 'not-markdown' };
  if (!normal.toLowerCase().endsWith('.md')) return { resolved: null, resolution: 'not-markdown' };
  return { resolved: null, resolution: 'missing' };
}

const PARTS = ['a', 'b.md', 'c.md', '..', '.', 'x', 'y.md', '', '%20', 'd%20e.md', 'd e.md', '?q', '#h', '~', '/'];
const FROMS = ['', 'x.md', 'a/k.md', 'a/x/k.md', './k.md', 'a//k.md', '/k.md', 'a/../k.md', '.a/k.md'];
function* targets(n: number): Generator<string> {
  let seed = 7;
  const r = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < n; i++) {
    let t = '';
    for (let j = 1 + Math.floor(r() * 4); j > 0; j--)
      t += PARTS[Math.floor(r() * PARTS.length)]! + (r() < 0.6 ? '/' : '');
    yield r() < 0.1 ? `${ROOT}/${t}` : r() < 0.1 ? ` ${t}` : t;
  }
}

describe('link resolution at load', () => {
  it('resolvePath answers what decode + posix.join + normalize answer', () => {
    let n = 0;
    for (const t of targets(4000))
      for (const from of FROMS) {
        const got = resolveLink(from, { kind: 'markdown', target: t }, lookup, ROOT, false);
        expect({ resolved: got.resolved, resolution: got.resolution }, `${from} → ${t}`).toEqual(
          reference(from, t, lookup),
        );
        n++;
      }
    expect(n).toBe(4000 * FROMS.length);
  });

  it('the memo answers what resolveLink answers, and resolves each distinct key once', () => {
    startCounting();
    try {
      const memo = linkResolver(lookup, ROOT);
      const kinds = ['wikilink', 'markdown', 'mention', 'definition'] as const;
      const seen = new Set<string>();
      for (const t of targets(1000))
        for (const from of FROMS)
          for (const kind of kinds) {
            const link = { kind, target: kind === 'wikilink' ? t.replace(/\//g, '') || 'b' : t };
            expect(memo(from, link)).toEqual(resolveLink(from, link, lookup, ROOT, false));
            const dir = from.includes('/') ? `${from.slice(0, from.lastIndexOf('/'))}|${posix.dirname(from)}` : '';
            // A plain mention from a plain folder: resolved once from the root, and once from the folder only
            // when `folder/target` is a file.
            const plain = kind === 'mention' && plainFolder(from) !== null && plainMention(t);
            if (plain) seen.add(`m\0${t}`);
            const rel = `${plainFolder(from)}${t}`;
            if (!plain || lookup.markdown.has(rel) || lookup.other.has(rel))
              seen.add(kind === 'wikilink' ? `w\0${link.target}` : `${dir}\0${kind}\0${link.target}`);
          }
      expect(snapshot()['link.resolve']).toBe(seen.size);
    } finally {
      stopCounting();
    }
  });
});
