/** The pre-write check: is this draft a note the vault already has, or one that contradicts it? */
import { readFileSync } from 'node:fs';
import { entryNotes } from '../consolidate/entries.js';
import { securityFindings } from '../rules/security/in-text.js';
import { loadVault } from '../vault/load.js';
import type { Config } from '../config/schema.js';
import { noteClauses, noteConflicts, type NoteClauses } from '../similarity/conflict.js';
import { estimate, signature } from '../similarity/minhash.js';
import { similarity as similarityOf, similarityTo, THRESHOLDS } from '../similarity/score.js';
import { shingleHashes, statedText, tokens } from '../similarity/text.js';
import { runRules } from '../rules/engine.js';
import { asksAbout, DRAFT_RULES } from '../rules/draft.js';
import type { Finding } from '../rules/types.js';
import { vaultFromText } from '../vault/from-text.js';
import { CorruptCacheError, type NoteSignature } from './cache.js';
import { closeSignatures, noteSignatures, type SignatureSet } from './signatures.js';
import { linkGraph, type LinkGraph } from './link-graph.js';
import { graphSession } from './graph-cache.js';
import { claimsStore } from './claims-cache.js';
import { cachedGitHistory } from './git-cache.js';
import { checkDeadline, GuardTimeout } from './deadline.js';
import { discover } from '../vault/discover.js';
import { cachedDiscovery } from './folders.js';
import { lazyGitChanges, provenance, type GitChange } from '../vault/history.js';
import { detectKind } from '../vault/roles.js';
import { parseEntryPath } from '../proposal/refs.js';
import { mark } from '../util/timing.js';
import { guardIndexText, guardNoteIndexLine, guardStoreAdd, guardStoreText, type IndexGuard } from './index-target.js';

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
  /** ok; ask (a contradiction or a security warning: look first); refuse (a duplicate or an error). See verdictOf. */
  readonly verdict: 'ok' | 'ask' | 'refuse';
  readonly matches: readonly GuardMatch[];
  readonly problems: readonly Finding[];
  readonly reasons: readonly string[];
  readonly cache: { readonly fromCache: number; readonly computed: number };
  /** Index and store budget: set when the write targets the index, a store, or a new note. */
  readonly index?: IndexGuard;
}

/** Folds the index/store guard into a result: the stricter verdict, its reasons after the others. */
function withIndex(r: GuardResult, g: IndexGuard): GuardResult {
  const verdict =
    r.verdict === 'refuse' || g.verdict === 'refuse'
      ? 'refuse'
      : r.verdict === 'ask' || g.verdict === 'ask'
        ? 'ask'
        : 'ok';
  const said = g.reasons.length || g.advice.length || g.measured;
  return { ...r, verdict, reasons: [...r.reasons, ...g.reasons], ...(said ? { index: g } : {}) };
}

function matchProvenance(
  gitOf: (path: string) => GitChange | null,
  n: NoteSignature,
  now: number,
): Pick<GuardMatch, 'ageDays' | 'modified' | 'origin'> {
  const { ageDays, modified, origin } = provenance({ path: n.path, mtimeMs: n.mtimeMs, meta: n.meta() }, gitOf, now);
  return { ageDays, modified, origin };
}

export interface GuardOptions {
  /** Where the draft would be written (vault-relative): writing there is an update, not a duplicate. */
  readonly targetPath?: string;
  readonly now?: Date;
  /** 'read-only' for servers that must not write (MCP). */
  readonly cache?: 'read-write' | 'read-only' | 'off';
  /** The draft is the whole file after the write (the Claude Code hook), not a note or an entry to add. */
  readonly wholeFile?: boolean;
  /** Epoch ms after which guard stops with GuardTimeout (the hook's wall-clock bound). */
  readonly deadline?: number;
}

/** A match's kind: at or above the duplicate threshold a near-duplicate whatever else differs, else a contradiction, else shown when close enough. */
function matchKind(
  similarity: number,
  conflict: GuardMatch['conflict'] | undefined,
  config: Config,
): GuardMatch['kind'] | null {
  if (similarity >= config.guard.refuse) return 'near-duplicate';
  if (conflict) return 'contradiction';
  return similarity >= config.guard.show ? 'near-duplicate' : null;
}

/** Hermes: the draft is an entry, compared with every entry of the stores (small: no cache). */
function guardEntry(root: string, config: Config, draft: string, now: number, options: GuardOptions = {}): GuardResult {
  const vault = loadVault(root, { config, kind: 'hermes' });
  if (options.wholeFile && options.targetPath && vault.stores.some((s) => s.file === options.targetPath)) {
    return withIndex(
      { verdict: 'ok', matches: [], problems: [], reasons: [], cache: { fromCache: 0, computed: 0 } },
      guardStoreText(vault, options.targetPath, draft),
    );
  }
  // An entry to add (CLI, MCP); a hook's whole-file write of another file is not an add.
  const budget: IndexGuard = options.wholeFile
    ? { verdict: 'ok', reasons: [], advice: [] }
    : guardStoreAdd(vault, draft, options.targetPath);
  const problems = securityFindings(draft, config).map((f) => ({ ...f, file: '(draft)' }));
  const draftHashes = shingleHashes(tokens(draft));
  const draftView = noteClauses({
    text: draft,
    bodyOffset: 0,
    codeRanges: [],
    position: () => ({ line: 1, column: 1 }),
  });
  const matches: GuardMatch[] = [];
  const days = (t: number): number => Math.max(0, Math.floor((now - t) / 86_400_000));
  for (const e of entryNotes(vault)) {
    const hashes = shingleHashes(tokens(e.text));
    const similarity = similarityOf(draftHashes, hashes).score;
    const ref = parseEntryPath(e.path)!;
    const base = {
      path: ref.file,
      entry: ref.entry,
      name: null,
      similarity,
      ageDays: days(e.mtimeMs),
      modified: new Date(e.mtimeMs).toISOString(),
      origin: 'unknown',
    };
    let conflict: GuardMatch['conflict'];
    if (similarity >= THRESHOLDS.floor) {
      const f = noteConflicts(draftView, noteClauses(e), 1)[0];
      if (f) conflict = { kind: f.conflict.kind, detail: f.conflict.detail, draft: f.a.text, note: f.b.text };
    }
    const kind = matchKind(similarity, conflict, config);
    if (kind) matches.push({ ...base, kind, ...(conflict ? { conflict } : {}) });
  }
  matches.sort((a, b) => b.similarity - a.similarity);
  const { verdict, reasons } = verdictOf(matches, problems, config.guard.refuse);
  return withIndex({ verdict, matches, problems, reasons, cache: { fromCache: 0, computed: 0 } }, budget);
}

/** How many of the notes that share the draft's subject guard reads and sends to the conflict engine (the most similar first). */
export const CONFLICT_CAP = 20;

export function guardDraft(root: string, config: Config, draft: string, options: GuardOptions = {}): GuardResult {
  try {
    return guardOnce(root, config, draft, options, false);
  } catch (e) {
    // A signature cache whose head reads but whose links or metadata do not (they are decoded where
    // needed): answered again without it, and written anew.
    if (!(e instanceof CorruptCacheError)) throw e;
    return guardOnce(root, config, draft, options, true);
  }
}

function guardOnce(root: string, config: Config, draft: string, options: GuardOptions, rebuild: boolean): GuardResult {
  const cacheMode = !config.guard.cache ? 'off' : (options.cache ?? 'read-write');
  const sigMode = !rebuild ? cacheMode : cacheMode === 'read-write' ? 'rebuild' : 'off';
  const found = cacheMode === 'off' ? discover(root) : cachedDiscovery(root, cacheMode === 'read-write');
  mark('discovered');
  // A top-level MEMORY.md is read once: for the kind (a Hermes store holds a `§` line) and, when it
  // is the index, for the index checks below (9,000 lines on the hard bench shape).
  // Its bytes: a note write asks only whether the index links the note, and how much room it has, and both are
  // answered without decoding 9,000 lines (index-target.ts).
  const bytes = new Map<string, Buffer>();
  const readOnce = (f: { path: string; absPath: string }): Buffer => {
    const b = readFileSync(f.absPath);
    bytes.set(f.path, b);
    return b;
  };
  const textOf = (path: string): string | undefined => bytes.get(path)?.toString('utf8');
  if ((config.kind ?? detectKind(found.markdown, readOnce, true)) === 'hermes')
    return guardEntry(root, config, draft, (options.now ?? new Date()).getTime(), options);
  // The index itself: measured as the harness reads it, not compared as a note.
  if (options.targetPath === config.index.file) {
    // Reachability from the signature cache's links, read only when the write changes the index's links;
    // the resolved graph itself is kept between index writes while nothing it came from changed (graph-cache.ts).
    const build = (): { sigs: SignatureSet; graph: LinkGraph } => {
      let first: SignatureSet | undefined;
      try {
        first = noteSignatures(root, config, found, { cache: sigMode, deadline: options.deadline });
        return { sigs: first, graph: linkGraph(root, config, found, first) };
      } catch (e) {
        closeSignatures(first);
        if (e instanceof GuardTimeout) throw e;
        // A cache whose header reads but whose JSON does not: answered without it, and written anew.
        const sigs = noteSignatures(root, config, found, {
          cache: cacheMode === 'read-write' ? 'rebuild' : 'off',
          deadline: options.deadline,
        });
        return { sigs, graph: linkGraph(root, config, found, sigs) };
      }
    };
    const session = graphSession(root, config, found, rebuild ? 'off' : cacheMode, build);
    let g: IndexGuard;
    try {
      g = guardIndexText(root, config, draft, () => session.graph(), cacheMode, textOf(config.index.file));
      session.save();
    } finally {
      closeSignatures(session.sigs());
    }
    const counts = session.sigs();
    // A stored graph vouches for every note as the signature cache would (all unchanged: none computed).
    const cache = counts
      ? { fromCache: counts.fromCache, computed: counts.computed }
      : { fromCache: session.fromStored, computed: 0 };
    return withIndex(
      {
        verdict: 'ok',
        matches: [],
        problems: [],
        reasons: [],
        cache,
      },
      g,
    );
  }
  const now = (options.now ?? new Date()).getTime();
  const draftPath = options.targetPath ?? '.draft.md';
  mark('guard start');
  const draftVault = vaultFromText(root, { ...config, reviewed: [] }, [{ path: draftPath, text: draft }]);
  const draftNote = draftVault.notes[0]!;
  const problems = runRules(draftVault, DRAFT_RULES).findings.map((f) => ({
    ...f,
    file: options.targetPath ?? '(draft)',
  }));
  const draftTokens = tokens(statedText(draftNote));
  const draftHashes = shingleHashes(draftTokens);
  const draftSig = signature(draftHashes);
  mark('draft checked');
  const sigs = noteSignatures(root, config, found, { cache: sigMode, deadline: options.deadline });
  mark('signatures');
  const name = draftNote.meta.name?.trim() || null;
  const matches: GuardMatch[] = [];
  const before = new Map<string, number>();
  const target = options.targetPath;
  try {
    // Sentence views are built only if some note is close enough to be read (most drafts have none).
    let viewed: NoteClauses | null = null;
    const draftClauses = (): NoteClauses => (viewed ??= noteClauses(draftNote));
    // Updating a note in place: duplication that existed before the edit is consolidate's business;
    // guard refuses only what the edit makes worse.
    const { table } = sigs;
    const targetIndex = target !== undefined ? table?.indexOf(target) : undefined;
    const existing =
      target === undefined
        ? undefined
        : (sigs.fresh.find((n) => n.path === target) ??
          (targetIndex !== undefined && sigs.valid.includes(targetIndex) ? table!.note(targetIndex) : undefined));
    // The cheap MinHash estimate first, on the cached table itself: objects only for candidates.
    // Same `name`: an update, not a duplicate. Checked after the similarity (the draft's shingles are
    // prepared once: `similarityTo`) because meta() decodes JSON, and most candidates stop there.
    const scored: { n: NoteSignature; similarity: number }[] = [];
    const toDraft = similarityTo(draftHashes);
    const consider = (n: NoteSignature, similarity: number): void => {
      if (similarity >= THRESHOLDS.floor && !(name && n.meta().name?.trim() === name)) scored.push({ n, similarity });
    };
    if (table) {
      const picked: number[] = [];
      for (const i of sigs.valid)
        if (i !== targetIndex && table.estimate(i, draftSig) >= THRESHOLDS.candidate) picked.push(i);
      mark('  estimated');
      // Their shingles only (on a vault of long notes most of the file is other notes' shingles), scored as they are
      // read through one reused buffer; only the shingles of those that score are kept.
      const similarities = new Float64Array(picked.length);
      table.scan(picked, (k, shingles) => {
        const similarity = (similarities[k] = toDraft(shingles).score);
        if (similarity >= THRESHOLDS.floor) table.keep(picked[k]!, shingles);
      });
      mark('  prefetched');
      picked.forEach((i, k) => consider(table.note(i), similarities[k]!));
    }
    for (const n of sigs.fresh)
      if (n.path !== target && estimate(draftSig, n.signature) >= THRESHOLDS.candidate)
        consider(n, toDraft(n.shingles).score);
    // Reading a note and running the conflict engine on it is the expensive part: only notes close
    // enough to share a subject, and of those the CONFLICT_CAP most similar (issue 14: on a topical
    // vault hundreds of notes pass `related`, and the hook must stay fast).
    const toRead = new Set(
      scored
        .filter((x) => x.similarity >= THRESHOLDS.related)
        .sort((a, b) => b.similarity - a.similarity || (a.n.path < b.n.path ? -1 : 1))
        .slice(0, CONFLICT_CAP)
        .map((x) => x.n),
    );
    mark('  scored');
    // Each read note's sentences and claims: cached per note by its bytes (claims-cache.ts).
    const claims = claimsStore(root, config, cacheMode);
    const hits: {
      n: NoteSignature;
      kind: GuardMatch['kind'];
      similarity: number;
      conflict: GuardMatch['conflict'] | undefined;
    }[] = [];
    for (const { n, similarity } of scored) {
      checkDeadline(options.deadline, `comparing the draft with ${scored.length} similar notes`);
      let conflict: GuardMatch['conflict'];
      const view = toRead.has(n) ? claims.view(n.path) : null;
      if (view) {
        const f = noteConflicts(draftClauses(), view, 1)[0];
        if (f) conflict = { kind: f.conflict.kind, detail: f.conflict.detail, draft: f.a.text, note: f.b.text };
      }
      if (existing) before.set(n.path, similarityOf(existing.shingles, n.shingles).score);
      // At or above the duplicate threshold the draft is that note, whatever else differs (a letter,
      // a number, an added negation): the agent must update it, and the conflict, if any, rides along.
      const kind = matchKind(similarity, conflict, config);
      if (kind) hits.push({ n, kind, similarity, conflict });
    }
    claims.save();
    mark('  conflicts');
    // One git query for the matches whose front matter lacks a date or an origin (issue 16: not one
    // `git log` per note), about the matches only: a `git log` over every candidate's path (1,200 on
    // the hard bench shape at 10k) costs more than the rest of the comparison.
    const gitOf = lazyGitChanges(root, () => hits.map((h) => h.n.path), cachedGitHistory(cacheMode));
    for (const { n, kind, similarity, conflict } of hits)
      matches.push({
        path: n.path,
        name: n.meta().name,
        kind,
        similarity,
        ...matchProvenance(gitOf, n, now),
        ...(conflict ? { conflict } : {}),
      });
    mark('compared');
  } finally {
    closeSignatures(sigs);
  }
  matches.sort((a, b) => b.similarity - a.similarity || (a.path < b.path ? -1 : 1));
  const { verdict, reasons } = verdictOf(matches, problems, config.guard.refuse, before);
  const result: GuardResult = {
    verdict,
    matches,
    problems,
    reasons,
    cache: { fromCache: sigs.fromCache, computed: sigs.computed },
  };
  if (target === undefined) return result;
  const indexed = withIndex(
    result,
    guardNoteIndexLine(
      root,
      config,
      target,
      draft,
      name,
      draftNote.meta.description ?? null,
      bytes.get(config.index.file),
      cacheMode,
    ),
  );
  mark('index line');
  return indexed;
}

/**
 * The guard's policy. `refuse`: a near-duplicate at or above the duplicate threshold (name the note
 * to update; for an update in place, only if the edit makes it closer by more than 0.05) or an error
 * finding. `ask`: a contradiction, or any security finding that is not an error (prompt injection,
 * exfiltration, persistence, invisible text), or memory that should not be memory (memory/*): a person or the agent should look first. Else `ok`.
 */
export function verdictOf(
  matches: readonly GuardMatch[],
  problems: readonly Finding[],
  refuseAt: number,
  before: ReadonlyMap<string, number> = new Map(),
): { verdict: GuardResult['verdict']; reasons: string[] } {
  const refuse: string[] = [];
  const ask: string[] = [];
  for (const m of matches) {
    const where = `${m.path}${m.entry !== undefined ? ` entry ${m.entry}` : ''}${m.name ? ` ("${m.name}")` : ''}`;
    if (m.kind === 'near-duplicate' && m.similarity >= refuseAt && m.similarity > (before.get(m.path) ?? 0) + 0.05) {
      refuse.push(
        `near-duplicate of ${where} (similarity ${m.similarity}, ${m.ageDays ?? '?'} days old): update that ${m.entry !== undefined ? 'entry' : 'note'} instead of writing a new one`,
      );
    } else if (m.kind === 'contradiction' && m.conflict) {
      ask.push(
        `contradicts ${where} (${m.conflict.kind}: ${m.conflict.detail}): "${m.conflict.draft}" vs "${m.conflict.note}"; resolve which one holds before saving`,
      );
    }
  }
  for (const p of problems) {
    if (p.severity === 'error') refuse.push(`${p.ruleId}: ${p.message}`);
    else if (p.ruleId.startsWith('security/') || asksAbout(p)) ask.push(`${p.ruleId}: ${p.message}`);
  }
  return { verdict: refuse.length ? 'refuse' : ask.length ? 'ask' : 'ok', reasons: [...refuse, ...ask] };
}
