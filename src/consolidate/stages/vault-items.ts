/** Items from the checker's vault-level view: orphans, dangling index links (index overflow: index-overflow.ts). */
import { notesUnderRules, reachability } from '../../rules/reachability.js';
import type { Vault, VaultFile } from '../../vault/model.js';
import { vaultFromText } from '../../vault/from-text.js';
import { buildLookup, type NoteLookup } from '../../vault/resolve.js';
import { citations } from '../citations.js';
import { defineStage, type ItemDraft, type StageContext } from '../stage.js';
import { planSplit, PROPOSE_SHARE } from './index-overflow.js';
import { indexLineWriter, notStanding } from './orphan-lines.js';

/** Notes no index reaches. */
export function orphanNotes(vault: Vault): VaultFile[] {
  const { mentioned } = reachability(vault);
  return notesUnderRules(vault).filter((n) => !mentioned.has(n.path));
}

/** A date (2026-05-23, 2026_05_23, 20260523) in a file name: the note is a dated log (a session, a day's work). */
export function datedName(path: string): { readonly text: string; readonly iso: string } | null {
  const m = /(?<!\d)(20\d{2})([-_.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?!\d)/.exec(
    path.slice(path.lastIndexOf('/') + 1),
  );
  return m ? { text: m[0], iso: `${m[1]}-${m[3]}-${m[4]}` } : null;
}

/** When a note was written: a date in its file name, else `modified`, else the file's mtime (ms). */
function writtenAt(n: VaultFile): number {
  const d = datedName(n.path);
  const t = d ? Date.parse(`${d.iso}T00:00:00Z`) : n.meta.modified ? Date.parse(n.meta.modified) : NaN;
  return Number.isFinite(t) ? t : n.mtimeMs;
}

/** Similarity at which an orphan says much of what an indexed note says (the incidents stage's "similar"). */
const SIMILAR = { jaccard: 0.3, containment: 0.5 };

/**
 * Orphans that should not get an index line: their front matter says they are superseded (or
 * archived), or a newer note the index reaches says much the same (an in-progress log whose
 * "complete" note is already indexed). Each maps to why.
 */
export function supersededOrphans(
  ctx: Pick<StageContext, 'vault' | 'features' | 'pairs'>,
  orphans: readonly VaultFile[],
): Map<string, { by: string | null; why: string }> {
  const out = new Map<string, { by: string | null; why: string }>();
  const { supersededBy } = citations(ctx.vault);
  const isOrphan = new Set(orphans.map((n) => n.path));
  for (const n of orphans) {
    const by = supersededBy.get(n.path);
    if (by !== undefined)
      out.set(n.path, {
        by: by || null,
        why: by ? `its front matter says ${by} supersedes it` : 'its front matter marks it superseded or archived',
      });
  }
  const { mentioned } = reachability(ctx.vault);
  for (const p of ctx.pairs) {
    if (p.jaccard < SIMILAR.jaccard && p.containment < SIMILAR.containment) continue;
    for (const [o, k] of [
      [p.a, p.b],
      [p.b, p.a],
    ] as const) {
      const orphan = ctx.features[o]!.note;
      const kept = ctx.features[k]!.note;
      if (
        !isOrphan.has(orphan.path) ||
        out.has(orphan.path) ||
        !mentioned.has(kept.path) ||
        writtenAt(kept) < writtenAt(orphan)
      )
        continue;
      out.set(orphan.path, {
        by: kept.path,
        why: `a note as new or newer that the index reaches says much the same (similarity ${Math.max(p.jaccard, p.containment).toFixed(2)})`,
      });
    }
  }
  return out;
}

/**
 * Of these orphans, as many as fit in the index's budget (with headroom), measured by the
 * index-budget code on the index as it will read after the index-overflow item's moves; the others
 * are counted, not proposed (an index pushed over its budget would lose lines the agent reads today).
 */
export function orphansWithRoom(
  vault: Vault,
  all: readonly VaultFile[],
  lineFor: (note: VaultFile) => string,
): { notes: VaultFile[]; left: number } {
  const index = vault.index;
  if (!index || all.length === 0) return { notes: [], left: 0 };
  const headroom = vault.config.index.headroom;
  const split = planSplit(vault).linesAfter;
  const nl = index.crlf ? '\r\n' : '\n';
  const text0 = split ? `${index.bom ? '\uFEFF' : ''}${split.join(nl)}${split.length ? nl : ''}` : index.text;
  const base = text0.endsWith('\n') || text0 === '' ? text0 : `${text0}\n`;
  // An index already past the headroom that no split is proposed for (it is under both limits) may
  // still take lines up to just below where a split would be proposed: never into it.
  const now = split ? null : vault.indexInfo;
  const past =
    now !== null &&
    (now.lines > Math.floor(now.maxLines * headroom) || now.bytes > Math.floor(now.maxBytes * headroom));
  const fits = (k: number): boolean => {
    const text =
      base +
      all
        .slice(0, k)
        .map((n) => `${lineFor(n)}\n`)
        .join('');
    const info = vaultFromText(vault.root, vault.config, [{ path: index.path, text, role: 'index' }]).indexInfo!;
    return past
      ? info.lines < info.maxLines * PROPOSE_SHARE && info.bytes < info.maxBytes * PROPOSE_SHARE
      : info.lines <= Math.floor(info.maxLines * headroom) && info.bytes <= Math.floor(info.maxBytes * headroom);
  };
  // The largest k that fits (binary search: the measure grows with k).
  let lo = 0;
  let hi = all.length;
  if (!fits(0)) hi = 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return { notes: all.slice(0, lo), left: all.length - lo };
}

export const orphans = defineStage({
  id: 'orphans',
  description:
    'Notes no index reaches: add a line for them to the index while it has room in its budget (measured after the index-overflow moves); superseded ones are shown, not indexed.',
  run(ctx) {
    const { vault, summary } = ctx;
    const index = vault.config.index.file;
    const items: ItemDraft[] = [];
    const all = orphanNotes(vault);
    const superseded = supersededOrphans(ctx, all);
    for (const note of all) {
      const s = superseded.get(note.path);
      if (!s) continue;
      items.push({
        kind: 'orphan',
        paths: s.by ? [note.path, s.by] : [note.path],
        evidence: { reachableFrom: [], indexFile: index, supersededBy: s.by, why: s.why },
        suggestion: 'review',
        action: { type: 'keep' },
        info: `not indexed: ${s.why}; retire it, or merge what it adds, if it is stale`,
      });
    }
    // Notes whose own text says they are not standing memory, dated logs (a session's or a day's
    // notes), notes that do not read as text and second notes under an indexed note's name get no
    // line: an independent reader rejected the lines proposed for such notes (docs/proposal-precision.md).
    const lineFor = indexLineWriter(vault);
    const reachedNames = new Map<string, string>();
    const isOrphan = new Set(all.map((n) => n.path));
    for (const n of notesUnderRules(vault))
      if (!isOrphan.has(n.path) && n.meta.name) reachedNames.set(n.meta.name.trim().toLowerCase(), n.path);
    const skipped = new Map<string, string>();
    for (const note of all) {
      if (superseded.has(note.path)) continue;
      const twin = note.meta.name ? reachedNames.get(note.meta.name.trim().toLowerCase()) : undefined;
      const dated = datedName(note.path);
      const why = note.problem
        ? `its bytes do not read as text (${note.problem.kind}): fix the file first`
        : twin
          ? `${twin}, which the index reaches, has the same name: merge the two rather than index both`
          : (notStanding(note) ??
            (dated ? `a dated log (${dated.text} in its file name), usually superseded by later work` : null));
      if (why) skipped.set(note.path, why);
    }
    for (const [path, why] of skipped) {
      const inbound = ctx.inbound.get(path) ?? 0;
      const dated = datedName(path);
      items.push({
        kind: 'orphan',
        paths: [path],
        evidence: { reachableFrom: [], indexFile: index, inbound, why, ...(dated ? { dated: dated.text } : {}) },
        suggestion: 'review',
        action: { type: 'keep' },
        info: `not indexed: ${why}; ${inbound ? `${inbound} note${inbound > 1 ? 's' : ''} link${inbound > 1 ? '' : 's'} it` : 'no note links it'}. Retire it if it is finished, or add an index line if it still holds`,
      });
    }
    // When the room is short, rules and the user's facts first (the kinds a reader found worth a line).
    const rank = (n: VaultFile): number => {
      const k = ['feedback', 'user', 'reference'].indexOf(n.meta.type ?? '');
      return k < 0 ? 3 : k;
    };
    const candidates = all
      .filter((n) => !superseded.has(n.path) && !skipped.has(n.path))
      .sort((a, b) => rank(a) - rank(b));
    const { notes, left } = vault.index ? orphansWithRoom(vault, candidates, lineFor) : { notes: candidates, left: 0 };
    if (left > 0)
      summary.orphansWithoutRoom = {
        count: left,
        reason: `${index} has no room left in its budget for more lines (after the index-overflow moves); these orphans are not proposed`,
      };
    if (skipped.size > 0)
      summary.orphansNotIndexed = {
        count: skipped.size,
        reason:
          "their own text says they are finished, a hand-off, a working log or temporary; or they are dated logs, undecodable, or share an indexed note's name: shown as info",
      };
    for (const note of notes) {
      items.push({
        kind: 'orphan',
        paths: vault.index ? [note.path, index] : [note.path],
        evidence: { reachableFrom: [], indexFile: index },
        suggestion: 'relink',
        action: vault.index
          ? { type: 'fix-index', file: index, remove: [], add: [lineFor(note)] }
          : { type: 'retire', retire: [note.path] },
        dependsOnManifest: Boolean(vault.index),
      });
    }
    return items;
  },
});

export const danglingLinks = defineStage({
  id: 'dangling-links',
  description: 'Index lines that link notes that do not exist: point them at the likely note, or drop the line.',
  run({ vault }) {
    const items: ItemDraft[] = [];
    const readmes = vault.files.filter((f) => /^readme$/i.test(f.stem));
    // Suggestions are stems of the link lookup's notes; its byStem (the one stem → path map) names the note.
    let lookup: NoteLookup | null = null;
    const pathOfStem = (stem: string): string | null =>
      (lookup ??= buildLookup(
        vault.notes.map((n) => ({ path: n.path, stem: n.stem, name: n.meta.name })),
        [],
        [],
      )).byStem.get(stem) ?? null;
    for (const file of [vault.index, ...vault.secondaryIndexes]) {
      if (!file) continue;
      const lines = file.text.split('\n');
      for (const link of file.links) {
        if (link.kind === 'mention' || link.resolution !== 'missing') continue;
        const text = (lines[link.line - 1] ?? '').replace(/\r$/, '');
        // A folder's README that names the missing file documents it (kept out of this copy on purpose, on
        // another machine, behind .gitignore): unlinking would break a link that works where the file is.
        const named = documentedIn(readmes, link.target);
        if (named) {
          items.push({
            kind: 'dangling-link',
            paths: [file.path, named.path],
            evidence: { line: link.line, target: link.target, text, namedIn: named.path, namedAt: named.line },
            suggestion: 'review',
            action: { type: 'keep' },
            info: `not proposed: ${named.path} line ${named.line} names ${link.target}, so the file may be kept outside this copy on purpose; unlink or relink it only if it is really gone`,
          });
          continue;
        }
        // A wikilink's suggestion is a note's stem; the item names (and relinks to) the note's path.
        const to =
          link.suggestion === null ? null : link.kind === 'wikilink' ? pathOfStem(link.suggestion) : link.suggestion;
        items.push(
          to
            ? {
                kind: 'dangling-link',
                paths: [file.path, to],
                evidence: { line: link.line, target: link.target, suggestion: link.suggestion, text },
                suggestion: 'relink',
                action: { type: 'relink', file: file.path, from: link.target, to },
              }
            : {
                kind: 'dangling-link',
                paths: [file.path],
                evidence: { line: link.line, target: link.target, text },
                suggestion: 'fix-index',
                action: {
                  type: 'fix-index',
                  file: file.path,
                  remove: [],
                  add: [],
                  replace: [{ line: link.line, text, with: unlinked(text, link.target) }],
                },
              },
        );
      }
    }
    return items;
  },
});

/** The first README line that names the link target's file name (the README documents the file). */
function documentedIn(
  readmes: readonly VaultFile[],
  target: string,
): { readonly path: string; readonly line: number } | null {
  const name = target.slice(target.lastIndexOf('/') + 1).replace(/[#?].*$/, '');
  if (name.length < 4) return null;
  for (const r of readmes) {
    const at = r.text.indexOf(name, r.bodyOffset);
    if (at >= 0) return { path: r.path, line: r.text.slice(0, at).split('\n').length };
  }
  return null;
}

/** The line with its links to `target` turned into their plain text: the words stay, the dead link goes. */
export function unlinked(line: string, target: string): string {
  const esc = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return line
    .replace(new RegExp(`!?\\[([^\\]]*)\\]\\(<?${esc}(?:[#?][^)]*)?>?(?:\\s+"[^"]*")?\\)`, 'g'), '$1')
    .replace(
      new RegExp(`\\[\\[${esc}(?:#[^\\]|]*)?(?:\\|([^\\]]*))?\\]\\]`, 'g'),
      (_m, alias: string | undefined) => alias ?? target,
    );
}
