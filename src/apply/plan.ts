/**
 * Planning an apply: pure data from a proposal and the vault as it is now. Only approved items run;
 * each is checked for tampered paths and stale hashes first. The plan is the list of files with
 * their exact bytes before and after, so executing, dry-running and undoing all read one thing.
 */
import { buildCatalogFromNotes } from '../catalog/build.js';
import { entryRef, fileSha, manifestOf, parseEntryPath, refKey as entryKey } from '../proposal/refs.js';
import type { Proposal, ProposalItem } from '../proposal/schema.js';
import { sha256Hex } from '../util/digest.js';
import { rewriteStore, storeChunks } from '../vault/hermes.js';
import type { Link, Vault, VaultFile } from '../vault/model.js';
import { applyLineEdits, emptyLineEdits, replaceBody, retargetLines, retargetLinks, type LineEdits } from './edits.js';
import { refusePath, type PathRole } from './paths.js';
import { vaultFromText } from '../vault/from-text.js';
import { newSecurityFinding } from './scan-written.js';
import { maskSecrets, unmaskSecrets } from '../rules/security/secret.js';

export interface FileImage { readonly bytes: Uint8Array; readonly mode: number; readonly mtimeMs?: number }

export interface FileChange {
  readonly path: string;
  readonly before: FileImage | null;
  readonly after: FileImage | null;
  /** The item that caused it ('catalog' for the regenerated catalog). */
  readonly item: string;
}

export type ItemStatus = 'run' | 'skipped' | 'refused' | 'done';

export interface ItemOutcome {
  readonly id: string;
  readonly kind: string;
  readonly action: string;
  readonly status: ItemStatus;
  readonly reason?: string;
  /** One line saying what the item does. */
  readonly summary?: string;
  readonly warnings: readonly string[];
}

export interface Plan {
  readonly runId: string;
  readonly vault: string;
  readonly items: readonly ItemOutcome[];
  readonly changes: readonly FileChange[];
}

export const HOLDING = '.memlint/retired';
const encoder = new TextEncoder();

interface StoreEdits { readonly remove: Set<number>; readonly replace: Map<number, string> }

interface Overlay {
  /** New text (or null: moved to the holding folder) of files this item changes. */
  readonly texts: Map<string, string | null>;
  readonly index: Map<string, LineEdits>;
  /** Hermes stores: entries dropped or rewritten, composed across items like index edits. */
  readonly stores: Map<string, StoreEdits>;
  readonly warnings: string[];
}


function currentEntry(vault: Vault, path: string): { file: string; entry: number; text: string; sha256: string } | null {
  const e = parseEntryPath(path);
  if (!e) return null;
  const found = vault.stores.find((s) => s.file === e.file)?.entries[e.entry - 1];
  return found ? { file: e.file, entry: e.entry, text: found.text, sha256: found.sha256 } : null;
}

class Refusal extends Error {}

export function planApply(proposal: Proposal, vault: Vault, runId: string, options: { allOrNothing?: boolean } = {}): Plan {
  const texts = new Map<string, string | null>();
  const writtenBy = new Map<string, string>();
  const indexEdits = new Map<string, LineEdits>();
  const storeEdits = new Map<string, StoreEdits>();
  const touchedEntries = new Map<string, string>();
  const outcomes: ItemOutcome[] = [];
  const manifest = manifestOf(vault);

  for (const item of proposal.items) {
    const base = { id: item.id, kind: item.kind, action: item.action.type };
    if (item.decision !== 'approve') {
      outcomes.push({ ...base, status: 'skipped', reason: `decision: ${item.decision}`, warnings: [] });
      continue;
    }
    try {
      checkPaths(vault, item);
      checkFresh(vault, item, manifest);
      const overlay: Overlay = { texts: new Map(), index: new Map(), stores: new Map(), warnings: [] };
      runAction(vault, item, overlay);
      for (const path of overlay.texts.keys()) {
        const other = writtenBy.get(path);
        if (other) throw new Refusal(`conflicts with ${other}, which already changes ${path} in this run`);
      }
      for (const [file, edits] of overlay.stores) {
        for (const n of [...edits.remove, ...edits.replace.keys()]) {
          const other = touchedEntries.get(entryRef(file, n));
          if (other) throw new Refusal(`conflicts with ${other}, which already changes ${file} entry ${n} in this run`);
        }
      }
      for (const [file, edits] of overlay.stores) {
        const into = storeEdits.get(file) ?? { remove: new Set<number>(), replace: new Map<number, string>() };
        for (const n of edits.remove) { into.remove.add(n); touchedEntries.set(entryRef(file, n), item.id); }
        for (const [n, t] of edits.replace) { into.replace.set(n, t); touchedEntries.set(entryRef(file, n), item.id); }
        storeEdits.set(file, into);
      }
      for (const [path, text] of overlay.texts) { texts.set(path, text); writtenBy.set(path, item.id); }
      for (const [path, edits] of overlay.index) mergeLineEdits(indexEdits, path, edits);
      const changes = overlay.texts.size + overlay.index.size + overlay.stores.size;
      outcomes.push({ ...base, status: changes ? 'run' : 'done', ...(changes ? { summary: describe(item) } : { reason: 'nothing to change' }), warnings: overlay.warnings });
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      outcomes.push({ ...base, status: 'refused', reason: e.message, warnings: [] });
    }
  }

  if (options.allOrNothing && outcomes.some((o) => o.status === 'refused')) {
    return {
      runId, vault: vault.root, changes: [],
      items: outcomes.map((o) => (o.status === 'run' || o.status === 'done' ? { ...o, status: 'skipped', reason: '--all-or-nothing: another approved item was refused' } : o)),
    };
  }

  for (const [path, edits] of indexEdits) {
    if (texts.get(path) === null) continue;
    const file = vault.byPath.get(path)!;
    texts.set(path, applyLineEdits(file, edits));
  }
  for (const [path, edits] of storeEdits) {
    texts.set(path, rewriteStore(vault.byPath.get(path)!.text, edits.remove, edits.replace, vault.byPath.get(path)!.bom));
    writtenBy.set(path, [...new Set([...edits.remove, ...edits.replace.keys()].map((n) => touchedEntries.get(entryRef(path, n))!))].join(', '));
  }
  const changes = toChanges(vault, texts, runId, writtenBy);
  // A retired entry is kept in the holding folder too, as a file of its own.
  for (const [path, edits] of storeEdits) {
    const store = vault.stores.find((s) => s.file === path)!;
    for (const n of [...edits.remove].sort((a, b) => a - b)) {
      const e = store.entries[n - 1]!;
      changes.push({ path: `${HOLDING}/${runId}/${path}.entry-${n}.md`, before: null, after: { bytes: encoder.encode(`${e.text}\n`), mode: 0o644 }, item: touchedEntries.get(entryRef(path, n))! });
    }
  }
  if (changes.length > 0) {
    const catalog = regenerateCatalog(vault, texts);
    if (catalog) changes.push(catalog);
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { runId, vault: vault.root, items: outcomes, changes };
}

function checkPaths(vault: Vault, item: ProposalItem): void {
  const checks: [string, PathRole][] = item.notes.map((n) => [entryKey(n), vault.byPath.get(n.path)?.role === 'note' || !vault.byPath.has(n.path) ? 'note' : 'index']);
  const a = item.action;
  if (a.type === 'merge') checks.push([a.into, 'note'], ...a.retire.map((p) => [p, 'note'] as [string, PathRole]));
  if (a.type === 'retire') checks.push(...a.retire.map((p) => [p, 'note'] as [string, PathRole]), ...(a.to !== undefined ? [[a.to, 'any-markdown'] as [string, PathRole]] : []));
  if (a.type === 'relink') checks.push([a.file, 'index'], [a.to, 'note']);
  if (a.type === 'fix-index') checks.push([a.file, 'index']);
  if (a.type === 'split-index') checks.push([a.file, 'index'], ...a.moves.map((m) => [m.note, 'note'] as [string, PathRole]));
  for (const [raw, role] of checks) {
    const entry = parseEntryPath(raw);
    const path = entry ? entry.file : raw;
    if (entry && vault.byPath.get(path)?.role !== 'hermes-store') throw new Refusal(`refused path: ${JSON.stringify(raw)} addresses an entry, but ${path} is not a Hermes store`);
    const why = refusePath(vault, path, entry || vault.byPath.get(path)?.role === 'hermes-store' ? 'any-markdown' : role);
    if (why) throw new Refusal(`refused path: ${why}`);
  }
}

function checkFresh(vault: Vault, item: ProposalItem, manifest: string): void {
  const stale = item.notes
    .filter((n) => n.sha256 !== (n.entry ? (currentEntry(vault, entryKey(n))?.sha256 ?? 'absent') : fileSha(vault.byPath.get(n.path))))
    .map((n) => (n.entry ? `${n.path} entry ${n.entry}` : n.path));
  if (stale.length) throw new Refusal(`stale: ${stale.join(', ')} changed since the proposal was written (or the item was already applied)`);
  if (item.manifest && item.manifest !== manifest) throw new Refusal('stale: the set of notes changed since the proposal was written (an index or catalog rewrite depends on it)');
  const a = item.action;
  const mustExist = a.type === 'merge' ? [a.into, ...a.retire] : a.type === 'retire' ? a.retire : a.type === 'relink' ? [a.file, a.to] : a.type === 'fix-index' || a.type === 'split-index' ? [a.file] : [];
  if (a.type === 'split-index') {
    for (const m of a.moves) if (vault.byPath.has(m.note) || vault.otherFiles.has(m.note)) throw new Refusal(`${m.note} already exists; the item creates it`);
  }
  const listed = new Set(item.notes.map(entryKey));
  // An archive the entries are appended to is read: its sha256 must be in the notes ("absent" when the item creates it).
  if (a.type === 'retire' && a.to !== undefined && !listed.has(a.to)) throw new Refusal(`${a.to} is written but has no sha256 in the item's notes, so its freshness cannot be checked`);
  for (const p of mustExist) {
    if (parseEntryPath(p) ? !currentEntry(vault, p) : !vault.byPath.has(p)) throw new Refusal(`${p} does not exist`);
    if (!listed.has(p) && a.type !== 'relink') throw new Refusal(`${p} is acted on but has no sha256 in the item's notes, so its freshness cannot be checked`);
  }
}

function note(vault: Vault, path: string): VaultFile {
  return wholeText(vault.byPath.get(path)!);
}

function indexFiles(vault: Vault): VaultFile[] {
  return [vault.index, ...vault.secondaryIndexes].filter((f): f is VaultFile => f !== null).map(wholeText);
}

/** A file over the size cap was read only in part (its head, for the security rules): never written from. */
function wholeText(file: VaultFile): VaultFile {
  if (file?.problem?.kind === 'too-large') throw new Refusal(`${file.path} is over the size limit (${file.problem.detail}): apply does not rewrite a file it read only in part`);
  return file;
}

function editsFor(overlay: Overlay, path: string): LineEdits {
  let e = overlay.index.get(path);
  if (!e) { e = emptyLineEdits(); overlay.index.set(path, e); }
  return e;
}

/** Index lines that link any of `targets`: dropped, or pointed at `to` unless a line already links it. */
/** Index lines that link any of `targets`: dropped, or pointed at `to` unless a line already links it. */
function editIndexLines(vault: Vault, overlay: Overlay, targets: ReadonlySet<string>, to: string | null): void {
  for (const index of indexFiles(vault)) {
    const hit = (l: Link): boolean => l.resolved !== null && targets.has(l.resolved);
    const lines = [...new Set(index.links.filter((l) => l.kind !== 'mention' && hit(l)).map((l) => l.line))].sort((a, b) => a - b);
    if (lines.length === 0) continue;
    const edits = editsFor(overlay, index.path);
    const retargeted = to === null ? new Map<number, string>() : retargetLines(index, hit, to);
    let pointed = to === null || index.links.some((l) => l.resolved === to);
    for (const line of lines) {
      if (pointed) { edits.remove.add(line); continue; }
      edits.replace.set(line, retargeted.get(line)!);
      pointed = true;
    }
  }
}

function runAction(vault: Vault, item: ProposalItem, overlay: Overlay): void {
  const a = item.action;
  switch (a.type) {
    case 'keep':
      return;
    case 'merge': {
      if (a.retire.includes(a.into)) throw new Refusal(`merge into ${a.into} also retires it`);
      if (parseEntryPath(a.into)) { mergeEntries(vault, a.into, a.retire, a.body, overlay); return; }
      const into = note(vault, a.into);
      if (a.body !== undefined) {
        const merged = replaceBody(into, realBody(a.body, [a.into, ...a.retire].map((p) => note(vault, p).text)));
        // A merged body may not carry a security finding that none of the merged notes had.
        const why = newSecurityFinding(merged, [a.into, ...a.retire].map((p) => note(vault, p).text), vault.config, 'the merged body');
        if (why) throw new Refusal(why);
        overlay.texts.set(a.into, merged);
      }
      const retired = new Set(a.retire);
      for (const p of a.retire) overlay.texts.set(p, null);
      editIndexLines(vault, overlay, retired, a.into);
      for (const other of vault.notes) {
        if (retired.has(other.path) || other.path === a.into) continue;
        const text = retargetLinks(other, (l) => l.resolved !== null && retired.has(l.resolved), a.into);
        if (text !== null) overlay.texts.set(other.path, text);
      }
      return;
    }
    case 'retire': {
      if (a.retire.every((p) => parseEntryPath(p))) {
        mergeEntries(vault, null, a.retire, undefined, overlay);
        if (a.to !== undefined) overlay.texts.set(a.to, archiveText(vault, a.to, a.retire));
        return;
      }
      if (a.to !== undefined) throw new Refusal('`to` (a store archive) is for retiring Hermes entries only');
      const retired = new Set(a.retire);
      for (const p of a.retire) overlay.texts.set(p, null);
      editIndexLines(vault, overlay, retired, null);
      for (const other of vault.notes) {
        if (retired.has(other.path)) continue;
        const still = other.links.filter((l) => l.resolved && retired.has(l.resolved));
        if (still.length) overlay.warnings.push(`${other.path} still links ${[...new Set(still.map((l) => l.resolved))].join(', ')} (line ${still[0]!.line})`);
      }
      return;
    }
    case 'relink': {
      const file = note(vault, a.file);
      // A link to the same file with an #anchor or ?query is a link to it too.
      const from = (l: Link): boolean => l.target.replace(/[?#].*$/, '') === a.from || l.resolved === a.from;
      if (file.role === 'index' || file.role === 'secondary-index') {
        const lines = retargetLines(file, from, a.to);
        if (lines.size === 0) throw new Refusal(`${a.file} has no link to ${a.from}`);
        for (const [line, text] of lines) editsFor(overlay, a.file).replace.set(line, text);
      } else {
        const text = retargetLinks(file, from, a.to);
        if (text === null) throw new Refusal(`${a.file} has no link to ${a.from}`);
        overlay.texts.set(a.file, text);
      }
      return;
    }
    case 'fix-index': {
      const file = note(vault, a.file);
      const lines = file.text.split(/\r?\n/);
      const edits = editsFor(overlay, a.file);
      for (const r of a.remove) {
        const line = (lines[r.line - 1] ?? '').replace(/\r$/, '');
        // consolidate writes a line's credentials masked (maskSecrets): either form names the line.
        if (line !== r.text && maskSecrets(line) !== r.text) throw new Refusal(`${a.file} line ${r.line} no longer reads ${JSON.stringify(r.text)}`);
        edits.remove.add(r.line);
      }
      for (const l of a.add) {
        if (/\r|\n/.test(l)) throw new Refusal('a line to add holds a line break');
        const why = newSecurityFinding(l, [], vault.config, 'a line to add');
        if (why) throw new Refusal(why);
        edits.add.push(l);
      }
      for (const r of a.replace ?? []) {
        const line = (lines[r.line - 1] ?? '').replace(/\r$/, '');
        if (line !== r.text && maskSecrets(line) !== r.text) throw new Refusal(`${a.file} line ${r.line} no longer reads ${JSON.stringify(r.text)}`);
        if (/\r|\n/.test(r.with)) throw new Refusal('a replacement line holds a line break');
        // A masked credential in `with` is the one the line holds now: the file keeps its real bytes.
        const real = unmaskSecrets(r.with, line);
        if (real === null) throw new Refusal(`${a.file} line ${r.line}: a masked credential in the replacement stands for two different ones on the line`);
        const why = newSecurityFinding(real, [line], vault.config, 'a replacement line');
        if (why) throw new Refusal(why);
        edits.replace.set(r.line, real);
      }
      return;
    }
    case 'split-index': {
      // Each section moves, byte for byte, into a new note; one pointer line takes its place.
      const file = note(vault, a.file);
      const lines = file.text.split(/\r?\n/);
      const edits = editsFor(overlay, a.file);
      const eol = file.crlf ? '\r\n' : '\n';
      const created = new Map<string, string[]>();
      for (const m of a.moves) {
        // The lines as the file reads them: consolidate writes their credentials masked.
        const real = m.lines.map((text, i) => {
          const line = (lines[m.from - 1 + i] ?? '').replace(/\r$/, '');
          if (line !== text && maskSecrets(line) !== text) throw new Refusal(`${a.file} line ${m.from + i} no longer reads ${JSON.stringify(text)}`);
          return line;
        });
        // The pointer and front matter are consolidate's own words (titles masked): written as given.
        real.forEach((_, i) => { if (i === 0 && m.pointer) edits.replace.set(m.from, m.pointer); else edits.remove.add(m.from + i); });
        if (/\r|\n/.test(m.pointer)) throw new Refusal('a pointer line holds a line break');
        if (!a.moves.some((x) => x.note === m.note && x.pointer)) throw new Refusal(`no pointer line names ${m.note}: it would be reachable from nowhere`);
        // Sections moved into one note follow each other there, a blank line apart.
        const parts = created.get(m.note) ?? [m.frontmatter];
        parts.push(`${parts.length > 1 ? eol : ''}${real.join(eol)}${eol}`);
        created.set(m.note, parts);
      }
      for (const [path, parts] of created) overlay.texts.set(path, parts.join(''));
      return;
    }
  }
}

function describe(item: ProposalItem): string {
  const a = item.action;
  switch (a.type) {
    case 'merge': return parseEntryPath(a.into)
      ? `keep ${a.into}${a.body !== undefined ? ' with the merged text' : ''}; drop ${a.retire.join(', ')} (kept in ${HOLDING}/<run-id>/)`
      : `merge into ${a.into}${a.body !== undefined ? ' (with the merged body)' : ''}; retire ${a.retire.join(', ')}; links to them now point at ${a.into}`;
    case 'retire': return a.to !== undefined
      ? `move ${a.retire.join(', ')}, byte for byte, to the end of ${a.to} (also kept in ${HOLDING}/<run-id>/)`
      : `retire ${a.retire.join(', ')} to ${HOLDING}/<run-id>/ and drop their index lines`;
    case 'relink': return `${a.file}: links to ${a.from} now point at ${a.to}`;
    case 'fix-index': return `${a.file}: ${[
      a.remove.length ? `remove line${a.remove.length > 1 ? 's' : ''} ${a.remove.map((r) => r.line).join(', ')}` : '',
      a.replace?.length ? `rewrite line${a.replace.length > 1 ? 's' : ''} ${a.replace.map((r) => r.line).join(', ')}` : '',
      a.add.length ? `add ${a.add.length} line${a.add.length > 1 ? 's' : ''}` : '',
    ].filter(Boolean).join('; ')}`;
    case 'split-index': {
      const notes = [...new Set(a.moves.map((m) => m.note))];
      return `${a.file}: move ${a.moves.length} section${a.moves.length > 1 ? 's' : ''} (${a.moves.reduce((n, m) => n + m.lines.length, 0)} lines), byte for byte, into new note${notes.length > 1 ? 's' : ''} ${notes.join(', ')}; one pointer line per note`;
    }
    case 'keep': return 'keep as is';
  }
}

/** Hermes: drop the retired entries and, for a merge with a body, rewrite the kept one. */
function mergeEntries(vault: Vault, into: string | null, retire: readonly string[], body: string | undefined, overlay: Overlay): void {
  const edits = (file: string): StoreEdits => {
    let e = overlay.stores.get(file);
    if (!e) { e = { remove: new Set(), replace: new Map() }; overlay.stores.set(file, e); }
    return e;
  };
  for (const p of retire) {
    const e = currentEntry(vault, p);
    if (!e) throw new Refusal(`${p} does not exist`);
    edits(e.file).remove.add(e.entry);
  }
  if (into && body !== undefined) {
    const target = currentEntry(vault, into)!;
    body = realBody(body, [into, ...retire].map((p) => currentEntry(vault, p)!.text));
    const why = newSecurityFinding(body, [into, ...retire].map((p) => currentEntry(vault, p)!.text), vault.config, 'the merged body');
    if (why) throw new Refusal(why);
    if (body.includes('\n§\n') || /^§$/m.test(body)) throw new Refusal('the merged body holds a § separator line');
    edits(target.file).replace.set(target.entry, body);
  }
}

/**
 * A store's archive after entries move into it: each entry's bytes exactly as the store holds them,
 * appended after what the archive holds (every byte of which stays), `§` lines between them.
 */
function archiveText(vault: Vault, to: string, retire: readonly string[]): string {
  const existing = vault.byPath.get(to);
  if (vault.otherFiles.has(to)) throw new Refusal(`${to} exists but is not a file memlint reads (ignored by the config?): it cannot be an archive`);
  if (existing && existing.role !== 'note' && existing.role !== 'secondary-index') throw new Refusal(`${to} is the ${existing.role}, not an archive`);
  if (existing) wholeText(existing);
  const entries = retire.map((p) => {
    const e = parseEntryPath(p)!;
    const store = vault.byPath.get(e.file)!;
    const chunk = storeChunks(store.text, store.bom).filter((c) => c.text !== '')[e.entry - 1]!;
    return { text: store.text.slice(chunk.entryStart, chunk.entryEnd), crlf: store.crlf };
  });
  const eol = entries[0]!.crlf ? '\r\n' : '\n';
  const body = entries.map((e) => e.text).join(`${eol}§${eol}`) + eol;
  if (!existing || existing.text === '') return body;
  return `${existing.text}${/\n$/.test(existing.text) ? '' : eol}§${eol}${body}`;
}

/**
 * A merged body as written: the model that drafted it saw the notes with their credentials masked
 * (review's judge), so each mask is put back as the credential of the merged notes it stands for.
 */
function realBody(body: string, sources: readonly string[]): string {
  const real = unmaskSecrets(body, sources.join('\n'));
  if (real === null) throw new Refusal('a masked credential in the merged body stands for two different ones in the merged notes');
  return real;
}

function mergeLineEdits(all: Map<string, LineEdits>, path: string, edits: LineEdits): void {
  const into = all.get(path) ?? emptyLineEdits();
  for (const r of edits.remove) into.remove.add(r);
  for (const [k, v] of edits.replace) into.replace.set(k, v);
  into.add.push(...edits.add);
  all.set(path, into);
}

function toChanges(vault: Vault, texts: Map<string, string | null>, runId: string, writtenBy: Map<string, string>): FileChange[] {
  const out: FileChange[] = [];
  for (const [path, text] of texts) {
    const file = vault.byPath.get(path);
    const item = writtenBy.get(path) ?? 'index';
    if (!file) {
      // A note an item creates (split-index): undo removes it.
      if (text !== null) out.push({ path, before: null, after: { bytes: encoder.encode(text), mode: 0o644 }, item });
      continue;
    }
    const before = { bytes: file.bytes, mode: file.mode & 0o7777, mtimeMs: file.mtimeMs };
    if (text === null) {
      out.push({ path, before, after: null, item });
      out.push({ path: `${HOLDING}/${runId}/${path}`, before: null, after: before, item });
      continue;
    }
    const bytes = encoder.encode(text);
    if (sha256Hex(bytes) !== sha256Hex(file.bytes)) out.push({ path, before, after: { bytes, mode: before.mode }, item });
  }
  return out;
}

function regenerateCatalog(vault: Vault, texts: Map<string, string | null>): FileChange | null {
  const file = vault.catalog;
  if (!file && !vault.config.catalog.required) return null;
  const created = [...texts].filter(([p, t]) => t !== null && !vault.byPath.has(p)).map(([path, text]) => ({ path, text: text! }));
  const remaining = [...vault.notes.filter((n) => texts.get(n.path) !== null), ...(created.length ? vaultFromText(vault.root, vault.config, created).notes : [])];
  const text = buildCatalogFromNotes(remaining, vault.config.types);
  const bytes = encoder.encode(text);
  if (file && sha256Hex(bytes) === sha256Hex(file.bytes)) return null;
  return {
    path: vault.config.catalog.file,
    before: file ? { bytes: file.bytes, mode: file.mode & 0o7777, mtimeMs: file.mtimeMs } : null,
    after: { bytes, mode: file ? file.mode & 0o7777 : 0o644 },
    item: 'catalog',
  };
}
