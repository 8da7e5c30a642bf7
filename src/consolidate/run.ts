/** consolidate as a library call: the vault model in, a proposal out. Never writes a note. */
import { maskSecrets, maskSecretsDeep } from '../rules/security/secret.js';
import { notesUnderRules } from '../rules/shared.js';
import type { Proposal, ProposalItem, NoteRef, ItemKind } from '../proposal/schema.js';
import { fileSha, manifestOf } from '../proposal/refs.js';
import { gitHistory, provenance } from '../vault/history.js';
import type { Vault } from '../vault/model.js';
import { VERSION } from '../version.js';
import { noteFeatures, similarPairs } from '../similarity/features.js';
import { chooseRoot } from './root.js';
import type { ItemDraft, Stage, StageContext } from './stage.js';
import { HERMES_STAGES, STAGES } from './stages/index.js';
import { entryNotes } from './entries.js';
import { parseEntryPath } from '../vault/hermes.js';

export interface ConsolidateOptions {
  readonly root?: string;
  readonly now?: Date;
  readonly stages?: readonly Stage[];
  readonly progress?: (message: string) => void;
  /** PATH for executable checks (default: this process's). */
  readonly path?: string;
}

const ID_PREFIX: Record<ItemKind, string> = {
  'index-overflow': 'index', 'dangling-link': 'dangling', orphan: 'orphan', 'dead-reference': 'dead',
  'near-duplicate': 'dup', contradiction: 'contra', incident: 'incident', 'store-overflow': 'store',
  'not-memory': 'notmem',
};
/** Also the order conflicts are settled in: an earlier kind's item claims a note first. */
const KIND_ORDER: ItemKind[] = ['index-overflow', 'store-overflow', 'dangling-link', 'orphan', 'dead-reference', 'near-duplicate', 'contradiction', 'incident', 'not-memory'];

export function consolidateVault(vault: Vault, options: ConsolidateOptions = {}): Proposal {
  const now = options.now ?? new Date();
  const progress = options.progress ?? (() => undefined);
  // In a Hermes vault every store entry is a note (path `MEMORY.md#3`), compared by the same stages.
  const notes = vault.kind === 'hermes' ? entryNotes(vault) : notesUnderRules(vault);
  progress(`reading ${notes.length} notes`);
  const features = noteFeatures(notes);
  progress('comparing notes');
  const pairs = similarPairs(features);
  const inbound = new Map<string, number>();
  for (const n of vault.notes) {
    const targets = new Set(n.links.map((l) => l.resolved).filter((r): r is string => r !== null && r !== n.path));
    for (const t of targets) inbound.set(t, (inbound.get(t) ?? 0) + 1);
  }
  const { root, source } = chooseRoot(vault.root, options.root, vault.config.root);
  const summary: Record<string, unknown> = { notes: notes.length };
  const ctx: StageContext = { vault, notes, features, pairs, inbound, root, rootSource: source, summary, path: options.path ?? process.env.PATH ?? '' };
  const drafts: ItemDraft[] = [];
  for (const stage of options.stages ?? (vault.kind === 'hermes' ? HERMES_STAGES : STAGES)) {
    progress(`stage ${stage.id}`);
    drafts.push(...stage.run(ctx));
  }
  resolveConflicts(drafts, summary);
  const history = gitHistory(vault.root);
  const manifest = manifestOf(vault);
  const ref = (path: string): NoteRef => {
    const entry = parseEntryPath(path);
    if (entry && vault.kind === 'hermes') {
      const e = vault.stores.find((s) => s.file === entry.file)?.entries[entry.entry - 1];
      return { path: entry.file, entry: entry.entry, sha256: e ? e.sha256 : 'absent' };
    }
    const file = vault.byPath.get(path);
    if (!file || file.role !== 'note') return { path, sha256: fileSha(file) };
    const p = provenance(file, (path) => history.get(path), now.getTime());
    return { path, sha256: fileSha(file), name: file.meta.name, type: file.meta.type, modified: p.modified, origin: p.origin, ageDays: p.ageDays };
  };
  drafts.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || cmp(a.paths.join('\0'), b.paths.join('\0')) || cmp(JSON.stringify(a.action), JSON.stringify(b.action)));
  const counters = new Map<ItemKind, number>();
  const items: ProposalItem[] = drafts.map((d) => {
    const n = (counters.get(d.kind) ?? 0) + 1;
    counters.set(d.kind, n);
    return {
      id: `${ID_PREFIX[d.kind]}-${String(n).padStart(4, '0')}`,
      kind: d.kind,
      notes: d.paths.map(ref),
      // Evidence quotes and index lines are read by people and logs: credentials in them are masked.
      evidence: maskSecretsDeep(d.evidence),
      suggestion: d.suggestion,
      action: d.action.type === 'fix-index' ? { ...d.action, remove: d.action.remove.map((r) => ({ ...r, text: maskSecrets(r.text) })), add: d.action.add.map(maskSecrets) } : d.action,
      ...(d.dependsOnManifest ? { manifest } : {}),
      decision: 'pending',
    };
  });
  summary.items = Object.fromEntries(KIND_ORDER.map((k) => [k, counters.get(k) ?? 0]));
  return {
    version: 1,
    tool: `memlint ${VERSION}`,
    vault: vault.root,
    kind: vault.kind,
    createdAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    manifest,
    summary,
    items,
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * No two items whose actions conflict: a note that one item retires or merges away gets no orphan
 * line from another (the retiring item says it was an orphan too), and a note is retired, merged or
 * merged into by one item only (the first in kind order; the others are withheld and counted).
 */
export function resolveConflicts(drafts: ItemDraft[], summary: Record<string, unknown>): void {
  const order = [...drafts].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const claimed = new Map<string, ItemDraft>();
  const withheld: { kind: ItemKind; notes: readonly string[]; reason: string }[] = [];
  const drop = new Set<ItemDraft>();
  for (const d of order) {
    const a = d.action;
    const touched = a.type === 'merge' ? [a.into, ...a.retire] : a.type === 'retire' ? a.retire : [];
    const clash = touched.map((p) => claimed.get(p)).find((x) => x !== undefined);
    if (clash) { drop.add(d); withheld.push({ kind: d.kind, notes: d.paths, reason: `${touched.join(', ')} already acted on by a ${clash.kind} item` }); continue; }
    for (const p of touched) claimed.set(p, d);
  }
  const gone = new Map<string, ItemDraft>();
  for (const d of order) {
    if (drop.has(d)) continue;
    const a = d.action;
    for (const p of a.type === 'merge' ? a.retire : a.type === 'retire' ? a.retire : []) gone.set(p, d);
  }
  const alsoOrphan = new Set<ItemDraft>();
  for (const d of drafts) {
    if (d.kind !== 'orphan' || d.action.type !== 'fix-index') continue;
    const by = gone.get(d.paths[0]!);
    if (by) { drop.add(d); alsoOrphan.add(by); }
  }
  const kept = drafts.filter((d) => !drop.has(d)).map((d) => (alsoOrphan.has(d) ? { ...d, evidence: { ...d.evidence, alsoOrphan: true } } : d));
  drafts.splice(0, drafts.length, ...kept);
  if (withheld.length) summary.withheld = withheld;
}
