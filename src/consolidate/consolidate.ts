/** consolidate as a library call: the vault model in, a proposal out. Never writes a note. */
import { maskSecrets, maskSecretsDeep } from '../rules/security/secret.js';
import { notesUnderRules } from '../rules/reachability.js';
import type { InfoItem, Proposal, ProposalItem, NoteRef, ItemKind } from '../proposal/schema.js';
import { fileSha, manifestOf, parseEntryPath } from '../proposal/refs.js';
import { infoReason, isProposed } from './policy.js';
import { gitHistory, provenance } from '../vault/history.js';
import type { Vault } from '../vault/model.js';
import { VERSION } from '../version.js';
import { noteFeatures, similarPairs } from '../similarity/features.js';
import { chooseRoot } from '../vault/root.js';
import type { ItemDraft, Stage, StageContext } from './stage.js';
import { HERMES_STAGES, STAGES } from './stages/index.js';
import { entryNotes } from './entries.js';
import { mark } from '../util/timing.js';

export interface ConsolidateOptions {
  readonly root?: string;
  readonly now?: Date;
  readonly stages?: readonly Stage[];
  readonly progress?: (message: string) => void;
  /** PATH for executable checks (default: this process's). */
  readonly path?: string;
}

const ID_PREFIX: Record<ItemKind, string> = {
  'index-overflow': 'index',
  'dangling-link': 'dangling',
  orphan: 'orphan',
  'dead-reference': 'dead',
  'near-duplicate': 'dup',
  contradiction: 'contra',
  incident: 'incident',
  'store-overflow': 'store',
  'not-memory': 'notmem',
};
/** Also the order conflicts are settled in: an earlier kind's item claims a note first. */
const KIND_ORDER: ItemKind[] = [
  'index-overflow',
  'store-overflow',
  'dangling-link',
  'orphan',
  'dead-reference',
  'near-duplicate',
  'contradiction',
  'incident',
  'not-memory',
];

export function consolidateVault(vault: Vault, options: ConsolidateOptions = {}): Proposal {
  const now = options.now ?? new Date();
  const progress = options.progress ?? (() => undefined);
  // In a Hermes vault every store entry is a note (path `MEMORY.md#3`), compared by the same stages.
  const notes = vault.kind === 'hermes' ? entryNotes(vault) : notesUnderRules(vault);
  progress(`reading ${notes.length} notes`);
  mark('consolidate start');
  const features = noteFeatures(notes);
  mark('  note features');
  progress('comparing notes');
  const pairs = similarPairs(features);
  mark('  similar pairs');
  const inbound = new Map<string, number>();
  for (const n of vault.notes) {
    const targets = new Set(n.links.map((l) => l.resolved).filter((r): r is string => r !== null && r !== n.path));
    for (const t of targets) inbound.set(t, (inbound.get(t) ?? 0) + 1);
  }
  const { root, source } = chooseRoot(vault.root, options.root, vault.config.root);
  const summary: Record<string, unknown> = { notes: notes.length };
  const ctx: StageContext = {
    vault,
    notes,
    features,
    pairs,
    inbound,
    root,
    rootSource: source,
    summary,
    path: options.path ?? process.env.PATH ?? '',
  };
  const drafts: ItemDraft[] = [];
  for (const stage of options.stages ?? (vault.kind === 'hermes' ? HERMES_STAGES : STAGES)) {
    progress(`stage ${stage.id}`);
    drafts.push(...stage.run(ctx));
    mark(`  ${stage.id}`);
  }
  // Info items are never applied: only proposed items claim notes from one another.
  resolveConflicts(drafts, summary, (d) => isProposed(d.kind, vault.config) && d.info === undefined);
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
    return {
      path,
      sha256: fileSha(file),
      name: file.meta.name,
      type: file.meta.type,
      modified: p.modified,
      origin: p.origin,
      ageDays: p.ageDays,
    };
  };
  drafts.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      cmp(a.paths.join('\0'), b.paths.join('\0')) ||
      cmp(JSON.stringify(a.action), JSON.stringify(b.action)),
  );
  const counters = new Map<ItemKind, number>();
  const items: ProposalItem[] = [];
  const info: InfoItem[] = [];
  for (const d of drafts) {
    const n = (counters.get(d.kind) ?? 0) + 1;
    counters.set(d.kind, n);
    const item = {
      id: `${ID_PREFIX[d.kind]}-${String(n).padStart(4, '0')}`,
      kind: d.kind,
      notes: d.paths.map(ref),
      // Evidence quotes and index lines are read by people and logs: credentials in them are masked.
      evidence: maskSecretsDeep(d.evidence),
      suggestion: d.suggestion,
      action: maskAction(d.action),
      ...(d.dependsOnManifest ? { manifest } : {}),
    };
    // Kinds below the precision a proposal needs (policy.ts), and items a stage marks, are info only.
    const why = isProposed(d.kind, vault.config) ? d.info : infoReason(d.kind, vault.config);
    if (why !== undefined) info.push({ ...item, why });
    else items.push({ ...item, decision: 'pending' });
  }
  const count = (list: readonly { kind: ItemKind }[]): Record<string, number> =>
    Object.fromEntries(KIND_ORDER.map((k) => [k, list.filter((i) => i.kind === k).length]));
  summary.items = count(items);
  if (info.length) summary.info = count(info);
  mark('  items');
  return {
    version: 1,
    tool: `memlint ${VERSION}`,
    vault: vault.root,
    kind: vault.kind,
    createdAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    manifest,
    summary,
    items,
    ...(info.length ? { info } : {}),
  };
}

/**
 * The action as a proposal shows it: every line of note text it carries has its credentials masked
 * (people and logs read proposals). apply identifies each line by number and its masked or raw text,
 * and writes the real bytes the file holds (unmaskSecrets), never the mask.
 */
function maskAction(a: ItemDraft['action']): ItemDraft['action'] {
  switch (a.type) {
    case 'fix-index':
      return {
        ...a,
        remove: a.remove.map((r) => ({ ...r, text: maskSecrets(r.text) })),
        add: a.add.map(maskSecrets),
        ...(a.replace
          ? { replace: a.replace.map((r) => ({ ...r, text: maskSecrets(r.text), with: maskSecrets(r.with) })) }
          : {}),
      };
    case 'split-index':
      return {
        ...a,
        moves: a.moves.map((m) => ({
          ...m,
          lines: m.lines.map(maskSecrets),
          frontmatter: maskSecrets(m.frontmatter),
          pointer: maskSecrets(m.pointer),
        })),
      };
    // A merged body carries the notes' own text; apply puts each mask back from the merged notes (realBody).
    case 'merge':
      return a.body === undefined ? a : { ...a, body: maskSecrets(a.body) };
    default:
      return a;
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * No two items whose actions conflict: a note that one item retires or merges away, or that a relink
 * points an index line at, gets no orphan line from another (that item says it was an orphan too), and a note is retired, merged or
 * merged into by one item only (the first in kind order; the others are withheld and counted).
 */
export function resolveConflicts(
  drafts: ItemDraft[],
  summary: Record<string, unknown>,
  proposed: (d: ItemDraft) => boolean = () => true,
): void {
  const order = [...drafts].filter(proposed).sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const claimed = new Map<string, ItemDraft>();
  const withheld: { kind: ItemKind; notes: readonly string[]; reason: string }[] = [];
  const drop = new Set<ItemDraft>();
  for (const d of order) {
    const a = d.action;
    const touched = a.type === 'merge' ? [a.into, ...a.retire] : a.type === 'retire' ? a.retire : [];
    const clash = touched.map((p) => claimed.get(p)).find((x) => x !== undefined);
    if (clash) {
      drop.add(d);
      withheld.push({
        kind: d.kind,
        notes: d.paths,
        reason: `${touched.join(', ')} already acted on by a ${clash.kind} item`,
      });
      continue;
    }
    for (const p of touched) claimed.set(p, d);
  }
  const gone = new Map<string, ItemDraft>();
  for (const d of order) {
    if (drop.has(d)) continue;
    const a = d.action;
    for (const p of a.type === 'merge' ? a.retire : a.type === 'retire' ? a.retire : []) gone.set(p, d);
  }
  // A relink that points an index line at a note already gives it a line: no second one from orphans.
  const relinked = new Map<string, ItemDraft>();
  for (const d of order) if (!drop.has(d) && d.action.type === 'relink') relinked.set(d.action.to, d);
  const alsoOrphan = new Set<ItemDraft>();
  for (const d of drafts) {
    if (d.kind !== 'orphan' || d.action.type !== 'fix-index') continue;
    const by = gone.get(d.paths[0]!) ?? relinked.get(d.paths[0]!);
    if (by) {
      drop.add(d);
      alsoOrphan.add(by);
    }
  }
  const kept = drafts
    .filter((d) => !drop.has(d))
    .map((d) => (alsoOrphan.has(d) ? { ...d, evidence: { ...d.evidence, alsoOrphan: true } } : d));
  drafts.splice(0, drafts.length, ...kept);
  if (withheld.length) summary.withheld = withheld;
}
