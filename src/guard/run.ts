/** The pre-write check: is this draft a note the vault already has, or one that contradicts it? */
import { entryNotes } from '../consolidate/entries.js';
import { securityFindings } from '../rules/security/in-text.js';
import { loadVault } from '../vault/load.js';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { sentenceConflict, viewSentence } from '../consolidate/conflict.js';
import { estimate, signature } from '../consolidate/minhash.js';
import { differsInDigitsOrNegation } from '../consolidate/stages/near-duplicates.js';
import { containment, jaccard, sentences, shingleHashes, statedText, tokens } from '../consolidate/text.js';
import { runRules } from '../rules/engine.js';
import { DRAFT_RULES } from '../rules/draft.js';
import type { Finding } from '../rules/types.js';
import { readMarkdownFile } from '../vault/file.js';
import { vaultFromText } from '../vault/memory.js';
import type { VaultFile } from '../vault/model.js';
import type { NoteSignature } from './cache.js';
import { noteSignatures } from './signatures.js';
import { discover, type FolderListing } from '../vault/discover.js';
import { readFolderListings, writeFolderListings } from './folders.js';
import { lazyGitChanges, provenance, type GitChange } from '../vault/history.js';
import { detectKind } from '../vault/roles.js';
import { mark } from '../util/timing.js';

export interface GuardMatch {
  readonly path: string;
  /** Hermes: the entry number in the store. */
  readonly entry?: number;
  readonly name: string | null;
  readonly kind: 'near-duplicate' | 'contradiction';
  readonly similarity: number;
  readonly ageDays: number | null;
  readonly modified: string | null;
  readonly origin: string;
  /** For a contradiction: the two sentences. */
  readonly conflict?: { readonly kind: string; readonly detail: string; readonly draft: string; readonly note: string };
}

export interface GuardResult {
  readonly verdict: 'ok' | 'refuse';
  readonly matches: readonly GuardMatch[];
  readonly problems: readonly Finding[];
  readonly reasons: readonly string[];
  readonly cache: { readonly fromCache: number; readonly computed: number };
}

function matchProvenance(gitOf: (path: string) => GitChange | null, n: NoteSignature, now: number): Pick<GuardMatch, 'ageDays' | 'modified' | 'origin'> {
  const { ageDays, modified, origin } = provenance({ path: n.path, mtimeMs: n.mtimeMs, meta: n.meta() }, gitOf, now);
  return { ageDays, modified, origin };
}

function readNote(config: Config, root: string, path: string): Pick<VaultFile, 'text' | 'bodyOffset' | 'meta' | 'codeRanges' | 'position'> | null {
  try {
    const p = readMarkdownFile(path, join(root, ...path.split('/')), 'note', config.maxFileBytes);
    return { text: p.text, bodyOffset: p.bodyOffset, meta: p.meta, codeRanges: p.scan.codeRanges, position: p.position };
  } catch {
    return null;
  }
}

export interface GuardOptions {
  /** Where the draft would be written (vault-relative): writing there is an update, not a duplicate. */
  readonly targetPath?: string;
  readonly now?: Date;
  /** 'read-only' for servers that must not write (MCP). */
  readonly cache?: 'read-write' | 'read-only' | 'off';
}

/** Hermes: the draft is an entry, compared with every entry of the stores (small: no cache). */
function guardEntry(root: string, config: Config, draft: string, now: number): GuardResult {
  const vault = loadVault(root, { config, kind: 'hermes' });
  const problems = securityFindings(draft, config).map((f) => ({ ...f, file: '(draft)' }));
  const draftHashes = shingleHashes(tokens(draft));
  const draftView = draft.split(/(?<=[.!?。])\s+|\n/).filter((s) => s.trim().length > 7).map((s) => ({ text: s.trim(), v: viewSentence(s) }));
  const matches: GuardMatch[] = [];
  const days = (t: number): number => Math.max(0, Math.floor((now - t) / 86_400_000));
  for (const e of entryNotes(vault)) {
    const hashes = shingleHashes(tokens(e.text));
    const similarity = Math.round(Math.max(jaccard(draftHashes, hashes), Math.min(draftHashes.length, hashes.length) >= 6 ? containment(draftHashes, hashes) : 0) * 1000) / 1000;
    const [file, n] = e.path.split('#');
    const base = { path: file!, entry: Number(n), name: null, similarity, ageDays: days(e.mtimeMs), modified: new Date(e.mtimeMs).toISOString(), origin: 'unknown' };
    let conflict: GuardMatch['conflict'];
    if (similarity >= 0.1) {
      outer: for (const s of sentences(e)) for (const d of draftView) {
        const c = sentenceConflict(d.v, viewSentence(s.text));
        if (c) { conflict = { kind: c.kind, detail: c.detail, draft: d.text, note: s.text }; break outer; }
      }
    }
    if (conflict) matches.push({ ...base, kind: 'contradiction', conflict });
    else if (similarity >= config.guard.show) matches.push({ ...base, kind: 'near-duplicate' });
  }
  matches.sort((a, b) => b.similarity - a.similarity);
  const reasons = matches.filter((m) => m.kind === 'near-duplicate' && m.similarity >= config.guard.refuse)
    .map((m) => `near-duplicate of ${m.path} entry ${m.entry} (similarity ${m.similarity}): update that entry instead of adding one`);
  for (const p of problems.filter((f) => f.severity === 'error')) reasons.push(`${p.ruleId}: ${p.message}`);
  return { verdict: reasons.length ? 'refuse' : 'ok', matches, problems, reasons, cache: { fromCache: 0, computed: 0 } };
}

export function guardDraft(root: string, config: Config, draft: string, options: GuardOptions = {}): GuardResult {
  const cacheMode = !config.guard.cache ? 'off' : (options.cache ?? 'read-write');
  const listings = cacheMode !== 'off' ? readFolderListings(root) : undefined;
  const record = cacheMode === 'read-write' ? new Map<string, FolderListing>() : undefined;
  const found = discover(root, { ...(listings ? { listings } : {}), ...(record ? { record } : {}) });
  if (record) writeFolderListings(root, record, listings);
  if ((config.kind ?? detectKind(found.markdown)) === 'hermes') return guardEntry(root, config, draft, (options.now ?? new Date()).getTime());
  const now = (options.now ?? new Date()).getTime();
  const draftPath = options.targetPath ?? '.draft.md';
  mark('guard start');
  const draftVault = vaultFromText(root, { ...config, reviewed: [] }, [{ path: draftPath, text: draft }]);
  const draftNote = draftVault.notes[0]!;
  const problems = runRules(draftVault, DRAFT_RULES).findings.map((f) => ({ ...f, file: options.targetPath ?? '(draft)' }));
  const draftTokens = tokens(statedText(draftNote));
  const draftHashes = shingleHashes(draftTokens);
  const draftSig = signature(draftHashes);
  mark('draft checked');
  const sigs = noteSignatures(root, config, found, { cache: cacheMode });
  mark('signatures');
  const name = draftNote.meta.name?.trim() || null;
  // Sentence views are built only if some note is close enough to be read (most drafts have none).
  let viewed: { s: ReturnType<typeof sentences>[number]; v: ReturnType<typeof viewSentence> }[] | null = null;
  const draftSentences = (): NonNullable<typeof viewed> => (viewed ??= sentences(draftNote).map((s) => ({ s, v: viewSentence(s.text) })));
  const matches: GuardMatch[] = [];
  // Updating a note in place: duplication that existed before the edit is consolidate's business;
  // guard refuses only what the edit makes worse.
  const target = options.targetPath;
  const { table } = sigs;
  const targetIndex = target !== undefined ? table?.index.get(target) : undefined;
  const existing = target === undefined ? undefined
    : sigs.fresh.find((n) => n.path === target) ?? (targetIndex !== undefined && sigs.valid.includes(targetIndex) ? table!.note(targetIndex) : undefined);
  // The cheap MinHash estimate first, on the cached table itself: objects only for candidates.
  const candidates: NoteSignature[] = [];
  if (table) for (const i of sigs.valid) if (i !== targetIndex && table.estimate(i, draftSig) >= 0.05) candidates.push(table.note(i));
  for (const n of sigs.fresh) if (n.path !== target && estimate(draftSig, n.signature) >= 0.05) candidates.push(n);
  const before = new Map<string, number>();
  // One git query for every match that needs one (issue 16: not one `git log` per note).
  const gitOf = lazyGitChanges(root, () => candidates.map((n) => n.path));
  for (const n of candidates) {
    const j = jaccard(draftHashes, n.shingles);
    const c = Math.min(draftHashes.length, n.shingles.length) >= 6 ? containment(draftHashes, n.shingles) : j;
    const similarity = Math.round(Math.max(j, c) * 1000) / 1000;
    if (similarity < 0.1) continue;
    // Same `name`: an update, not a duplicate. Checked after the similarity (a merge of two sorted
    // arrays) because meta() decodes JSON, and most candidates stop above.
    if (name && n.meta().name?.trim() === name) continue;
    let conflict: GuardMatch['conflict'];
    // Reading a note is the expensive part: only notes close enough to share a subject.
    const note = similarity >= 0.2 ? readNote(config, root, n.path) : null;
    if (note) {
      outer: for (const ns of sentences(note)) {
        const nv = viewSentence(ns.text);
        for (const d of draftSentences()) {
          const c2 = sentenceConflict(d.v, nv);
          if (c2) { conflict = { kind: c2.kind, detail: c2.detail, draft: d.s.text, note: ns.text }; break outer; }
        }
      }
    }
    const disagree = conflict !== undefined || (note !== null && similarity >= config.guard.show && differsInDigitsOrNegation(draftTokens, tokens(statedText(note))));
    if (existing) before.set(n.path, Math.max(jaccard(existing.shingles, n.shingles), containment(existing.shingles, n.shingles)));
    if (disagree && conflict) matches.push({ path: n.path, name: n.meta().name, kind: 'contradiction', similarity, ...matchProvenance(gitOf, n, now), conflict });
    else if (!disagree && similarity >= config.guard.show) matches.push({ path: n.path, name: n.meta().name, kind: 'near-duplicate', similarity, ...matchProvenance(gitOf, n, now) });
  }
  mark('compared');
  matches.sort((a, b) => b.similarity - a.similarity || (a.path < b.path ? -1 : 1));
  const reasons: string[] = [];
  const strong = matches.filter((m) => m.kind === 'near-duplicate' && m.similarity >= config.guard.refuse && m.similarity > (before.get(m.path) ?? 0) + 0.05);
  for (const m of strong) reasons.push(`near-duplicate of ${m.path}${m.name ? ` ("${m.name}")` : ''} (similarity ${m.similarity}, ${m.ageDays ?? '?'} days old): update that note instead of writing a new one`);
  for (const p of problems.filter((f) => f.severity === 'error')) reasons.push(`${p.ruleId}: ${p.message}`);
  return { verdict: reasons.length ? 'refuse' : 'ok', matches, problems, reasons, cache: { fromCache: sigs.fromCache, computed: sigs.computed } };
}
