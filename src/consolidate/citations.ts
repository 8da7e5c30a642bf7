/**
 * References a note's front matter makes to other notes (`relates_to: [a.md, b.md]`,
 * `supersedes: old_note`, `superseded_by: ...`): plain names in YAML values, which the link scanner
 * does not read as links. Counted by consolidate wherever a link counts (incidents, orphans).
 */
import type { Vault, VaultFile } from '../vault/model.js';

const SPLIT = /[\s,;[\]()"'<>|]+/;
const SUPERSEDED_KEYS = /^(superseded[-_]?by|replaced[-_]?by|obsoleted[-_]?by|successor)$/i;
const SUPERSEDES_KEYS = /^(supersedes|replaces|obsoletes|predecessor)$/i;
const RETIRED_STATUS = /^(superseded|obsolete|deprecated|archived|retired|stale)$/i;

export interface Citations {
  /** Note path → the notes whose front matter names it. */
  readonly citedBy: ReadonlyMap<string, ReadonlySet<string>>;
  /** Note path → the note its own front matter (or a newer note's `supersedes`) says replaces it, or '' for a superseded/archived status. */
  readonly supersededBy: ReadonlyMap<string, string>;
}

const cache = new WeakMap<Vault, Citations>();

export function citations(vault: Vault): Citations {
  let c = cache.get(vault);
  if (c) return c;
  const byStem = new Map<string, string>();
  for (const n of vault.notes) if (!byStem.has(n.stem.toLowerCase())) byStem.set(n.stem.toLowerCase(), n.path);
  const resolve = (token: string): string | null => {
    const t = token
      .replace(/^\.\//, '')
      .replace(/^\[\[|\]\]$/g, '')
      .replace(/\.md$/i, '');
    if (t.length < 3) return null;
    return byStem.get(t.slice(t.lastIndexOf('/') + 1).toLowerCase()) ?? null;
  };
  const namesIn = (value: unknown, out: Set<string>, self: string): void => {
    if (typeof value === 'string') {
      for (const tok of value.split(SPLIT)) {
        const r = tok ? resolve(tok) : null;
        if (r && r !== self) out.add(r);
      }
    } else if (Array.isArray(value)) for (const v of value) namesIn(v, out, self);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) namesIn(v, out, self);
  };
  const citedBy = new Map<string, Set<string>>();
  const supersededBy = new Map<string, string>();
  for (const n of vault.notes as readonly VaultFile[]) {
    const data = n.frontmatter?.data;
    if (!data) continue;
    const walk = (obj: Readonly<Record<string, unknown>>): void => {
      for (const [key, value] of Object.entries(obj)) {
        if (key === 'name' || key === 'description') continue;
        const names = new Set<string>();
        namesIn(value, names, n.path);
        for (const t of names) {
          let s = citedBy.get(t);
          if (!s) citedBy.set(t, (s = new Set()));
          s.add(n.path);
        }
        if (SUPERSEDED_KEYS.test(key)) {
          const first = [...names][0];
          supersededBy.set(n.path, first ?? '');
        }
        if (SUPERSEDES_KEYS.test(key)) for (const t of names) if (!supersededBy.has(t)) supersededBy.set(t, n.path);
        if (key.toLowerCase() === 'status' && typeof value === 'string' && RETIRED_STATUS.test(value.trim()))
          supersededBy.set(n.path, supersededBy.get(n.path) ?? '');
        if (key === 'metadata' && value && typeof value === 'object' && !Array.isArray(value))
          walk(value as Record<string, unknown>);
      }
    };
    walk(data);
  }
  c = { citedBy, supersededBy };
  cache.set(vault, c);
  return c;
}
