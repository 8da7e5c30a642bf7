/**
 * How the approved items' edits become one plan: each item's overlay joins the run unless it changes a file or a
 * Hermes entry an earlier item changes; then index line edits and store edits are applied to the files, every
 * changed file gets its bytes before and after, retired files and entries get a copy in the holding folder, and
 * the catalog is regenerated.
 */
import { buildCatalogFromNotes } from '../catalog/build.js';
import { entryRef } from '../proposal/refs.js';
import { count } from '../util/counters.js';
import { sha256Hex } from '../util/digest.js';
import { vaultFromText, type MemoryFile } from '../vault/from-text.js';
import { rewriteStore } from '../vault/hermes.js';
import type { Vault, VaultFile } from '../vault/model.js';
import { applyLineEdits, emptyLineEdits, type LineEdits } from './edits.js';
import { Refusal } from './validate.js';

export interface FileImage {
  readonly bytes: Uint8Array;
  readonly mode: number;
  readonly mtimeMs?: number;
}

export interface FileChange {
  readonly path: string;
  readonly before: FileImage | null;
  readonly after: FileImage | null;
  /** The item that caused it ('catalog' for the regenerated catalog). */
  readonly item: string;
}

/** Where apply keeps what it retires (`HOLDING/<run-id>/<path>`), so undo can put it back. */
export const HOLDING = '.memlint/retired';
const encoder = new TextEncoder();

export interface StoreEdits {
  readonly remove: Set<number>;
  readonly replace: Map<number, string>;
}

/** What one item changes (actions.ts fills it). */
export interface Overlay {
  /** New text (or null: moved to the holding folder) of files this item changes. */
  readonly texts: Map<string, string | null>;
  readonly index: Map<string, LineEdits>;
  /** Hermes stores: entries dropped or rewritten, composed across items like index edits. */
  readonly stores: Map<string, StoreEdits>;
  readonly warnings: string[];
}

export const emptyOverlay = (): Overlay => ({ texts: new Map(), index: new Map(), stores: new Map(), warnings: [] });

/** The edits of the items of one run so far. */
export class Composition {
  private readonly texts = new Map<string, string | null>();
  private readonly writtenBy = new Map<string, string>();
  private readonly indexEdits = new Map<string, LineEdits>();
  private readonly storeEdits = new Map<string, StoreEdits>();
  private readonly touchedEntries = new Map<string, string>();

  /** Adds item `id`'s overlay; refused (nothing added) when it changes a file or entry an earlier item changes. */
  add(id: string, overlay: Overlay): void {
    for (const path of overlay.texts.keys()) {
      const other = this.writtenBy.get(path);
      if (other) throw new Refusal(`conflicts with ${other}, which already changes ${path} in this run`);
    }
    for (const [file, edits] of overlay.stores) {
      for (const n of [...edits.remove, ...edits.replace.keys()]) {
        const other = this.touchedEntries.get(entryRef(file, n));
        if (other) throw new Refusal(`conflicts with ${other}, which already changes ${file} entry ${n} in this run`);
      }
    }
    for (const [file, edits] of overlay.stores) {
      const into = this.storeEdits.get(file) ?? { remove: new Set<number>(), replace: new Map<number, string>() };
      for (const n of edits.remove) {
        into.remove.add(n);
        this.touchedEntries.set(entryRef(file, n), id);
      }
      for (const [n, t] of edits.replace) {
        into.replace.set(n, t);
        this.touchedEntries.set(entryRef(file, n), id);
      }
      this.storeEdits.set(file, into);
    }
    for (const [path, text] of overlay.texts) {
      this.texts.set(path, text);
      this.writtenBy.set(path, id);
    }
    for (const [path, edits] of overlay.index) mergeLineEdits(this.indexEdits, path, edits);
  }

  /** The file changes of every item added, sorted by path. */
  changes(vault: Vault, runId: string): FileChange[] {
    const { texts, writtenBy, storeEdits, touchedEntries } = this;
    for (const [path, edits] of this.indexEdits) {
      if (texts.get(path) === null) continue;
      const file = vault.byPath.get(path)!;
      texts.set(path, applyLineEdits(file, edits));
    }
    for (const [path, edits] of storeEdits) {
      texts.set(
        path,
        rewriteStore(vault.byPath.get(path)!.text, edits.remove, edits.replace, vault.byPath.get(path)!.bom),
      );
      writtenBy.set(
        path,
        [
          ...new Set([...edits.remove, ...edits.replace.keys()].map((n) => touchedEntries.get(entryRef(path, n))!)),
        ].join(', '),
      );
    }
    const changes = toChanges(vault, texts, runId, writtenBy);
    // A retired entry is kept in the holding folder too, as a file of its own.
    for (const [path, edits] of storeEdits) {
      const store = vault.stores.find((s) => s.file === path)!;
      for (const n of [...edits.remove].sort((a, b) => a - b)) {
        const e = store.entries[n - 1]!;
        changes.push({
          path: `${HOLDING}/${runId}/${path}.entry-${n}.md`,
          before: null,
          after: { bytes: encoder.encode(`${e.text}\n`), mode: 0o644 },
          item: touchedEntries.get(entryRef(path, n))!,
        });
      }
    }
    if (changes.length > 0) {
      const catalog = regenerateCatalog(vault, texts);
      if (catalog) changes.push(catalog);
    }
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return changes;
  }
}

function mergeLineEdits(all: Map<string, LineEdits>, path: string, edits: LineEdits): void {
  const into = all.get(path) ?? emptyLineEdits();
  for (const r of edits.remove) into.remove.add(r);
  for (const [k, v] of edits.replace) into.replace.set(k, v);
  into.add.push(...edits.add);
  all.set(path, into);
}

/**
 * The bytes a planned text becomes, by vault and path, and whether they differ from the file's: the post-state gate
 * plans many trials of one proposal, and a file an item writes has the same text in every trial that holds the item.
 * The same text gets the same bytes object, so what the gate keys by bytes (parses, file-rule findings, resolved
 * links) is found again rather than computed again. A few texts kept per path (`KEPT_PER_PATH`).
 */
interface Planned {
  readonly text: string;
  readonly before: Uint8Array | null;
  readonly bytes: Uint8Array;
  readonly differs: boolean;
}
const planned = new WeakMap<Vault, Map<string, Planned[]>>();
/** Texts kept per path, the latest first: the gate's trials alternate between a few (with an item, without it). */
const KEPT_PER_PATH = 4;
function plannedBytes(
  vault: Vault,
  path: string,
  text: string,
  before: Uint8Array | null,
): { bytes: Uint8Array; differs: boolean } {
  let byPath = planned.get(vault);
  if (!byPath) planned.set(vault, (byPath = new Map()));
  let kept = byPath.get(path);
  if (!kept) byPath.set(path, (kept = []));
  const at = kept.findIndex((p) => p.before === before && p.text === text);
  if (at >= 0) {
    const hit = kept[at]!;
    kept.splice(at, 1);
    kept.unshift(hit);
    return hit;
  }
  count('apply.plannedEncodes');
  const bytes = encoder.encode(text);
  const made = { text, before, bytes, differs: before === null || sha256Hex(bytes) !== sha256Hex(before) };
  kept.unshift(made);
  if (kept.length > KEPT_PER_PATH) kept.pop();
  return made;
}

function toChanges(
  vault: Vault,
  texts: Map<string, string | null>,
  runId: string,
  writtenBy: Map<string, string>,
): FileChange[] {
  const out: FileChange[] = [];
  for (const [path, text] of texts) {
    const file = vault.byPath.get(path);
    const item = writtenBy.get(path) ?? 'index';
    if (!file) {
      // A note an item creates (split-index): undo removes it.
      if (text !== null)
        out.push({
          path,
          before: null,
          after: { bytes: plannedBytes(vault, path, text, null).bytes, mode: 0o644 },
          item,
        });
      continue;
    }
    const before = { bytes: file.bytes, mode: file.mode & 0o7777, mtimeMs: file.mtimeMs };
    if (text === null) {
      out.push({ path, before, after: null, item });
      out.push({ path: `${HOLDING}/${runId}/${path}`, before: null, after: before, item });
      continue;
    }
    const { bytes, differs } = plannedBytes(vault, path, text, file.bytes);
    if (differs) out.push({ path, before, after: { bytes, mode: before.mode }, item });
  }
  return out;
}

function regenerateCatalog(vault: Vault, texts: Map<string, string | null>): FileChange | null {
  const file = vault.catalog;
  if (!file && !vault.config.catalog.required) return null;
  const created = [...texts]
    .filter(([p, t]) => t !== null && !vault.byPath.has(p))
    .map(([path, text]) => ({ path, text: text! }));
  const kept = vault.notes.filter((n) => texts.get(n.path) !== null);
  const made = createdNotes(vault, created);
  // The catalog is a function of the notes it lists: the vault's notes the plan keeps and those it creates.
  const gone =
    kept.length === vault.notes.length
      ? ''
      : vault.notes
          .filter((n) => texts.get(n.path) === null)
          .map((n) => n.path)
          .join('\0');
  let built = catalogs.get(vault);
  if (!built || built.size > 64) catalogs.set(vault, (built = new Map()));
  let byMade = built.get(gone);
  if (!byMade) built.set(gone, (byMade = new WeakMap()));
  let text = byMade.get(made);
  if (text === undefined) {
    count('apply.catalogBuilds');
    byMade.set(made, (text = buildCatalogFromNotes([...kept, ...made], vault.config.types)));
  }
  const { bytes, differs } = plannedBytes(vault, vault.config.catalog.file, text, file ? file.bytes : null);
  if (!differs) return null;
  return {
    path: vault.config.catalog.file,
    before: file ? { bytes: file.bytes, mode: file.mode & 0o7777, mtimeMs: file.mtimeMs } : null,
    after: { bytes, mode: file ? file.mode & 0o7777 : 0o644 },
    item: 'catalog',
  };
}

/**
 * Catalog texts built per vault, by the vault's notes a plan leaves out (their paths) and the created notes (the
 * array `createdNotes` gives): the gate's trials mostly list the same notes.
 */
const catalogs = new WeakMap<Vault, Map<string, WeakMap<readonly VaultFile[], string>>>();

/** The notes items create, parsed; the last list kept per vault (the gate's trials create the same notes again). */
const lastCreated = new WeakMap<
  Vault,
  { readonly created: readonly MemoryFile[]; readonly notes: readonly VaultFile[] }
>();
const NONE: readonly VaultFile[] = Object.freeze([]);
function createdNotes(vault: Vault, created: readonly MemoryFile[]): readonly VaultFile[] {
  if (created.length === 0) return NONE;
  const hit = lastCreated.get(vault);
  if (
    hit &&
    hit.created.length === created.length &&
    hit.created.every((c, i) => c.path === created[i]!.path && c.text === created[i]!.text)
  )
    return hit.notes;
  const notes = vaultFromText(vault.root, vault.config, created).notes;
  lastCreated.set(vault, { created, notes });
  return notes;
}
