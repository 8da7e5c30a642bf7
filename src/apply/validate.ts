/**
 * What apply refuses before an approved item runs: a path it may not touch, a note or entry whose bytes changed
 * since the proposal was written (stale sha256), a set of notes that changed (manifest), a file that is missing or
 * not listed with its hash, a file read only in part. A refusal is a `Refusal`: the item is reported, not run.
 */
import { fileSha, parseEntryPath, refKey as entryKey } from '../proposal/refs.js';
import type { ProposalItem } from '../proposal/schema.js';
import type { Vault, VaultFile } from '../vault/model.js';
import { refusePath, type PathMemo, type PathRole } from './paths.js';

export class Refusal extends Error {}

/** The Hermes entry `path` (`MEMORY.md#3`) addresses, as the store holds it now, or null. */
export function currentEntry(
  vault: Vault,
  path: string,
): { file: string; entry: number; text: string; sha256: string } | null {
  const e = parseEntryPath(path);
  if (!e) return null;
  const found = vault.stores.find((s) => s.file === e.file)?.entries[e.entry - 1];
  return found ? { file: e.file, entry: e.entry, text: found.text, sha256: found.sha256 } : null;
}

export function checkPaths(vault: Vault, item: ProposalItem, memo?: PathMemo): void {
  const checks: [string, PathRole][] = item.notes.map((n) => [
    entryKey(n),
    vault.byPath.get(n.path)?.role === 'note' || !vault.byPath.has(n.path) ? 'note' : 'index',
  ]);
  const a = item.action;
  if (a.type === 'merge') checks.push([a.into, 'note'], ...a.retire.map((p) => [p, 'note'] as [string, PathRole]));
  if (a.type === 'retire')
    checks.push(
      ...a.retire.map((p) => [p, 'note'] as [string, PathRole]),
      ...(a.to !== undefined ? [[a.to, 'any-markdown'] as [string, PathRole]] : []),
    );
  if (a.type === 'relink') checks.push([a.file, 'index'], [a.to, 'note']);
  if (a.type === 'fix-index') checks.push([a.file, 'index']);
  if (a.type === 'split-index')
    checks.push([a.file, 'index'], ...a.moves.map((m) => [m.note, 'note'] as [string, PathRole]));
  for (const [raw, role] of checks) {
    const entry = parseEntryPath(raw);
    const path = entry ? entry.file : raw;
    if (entry && vault.byPath.get(path)?.role !== 'hermes-store')
      throw new Refusal(`refused path: ${JSON.stringify(raw)} addresses an entry, but ${path} is not a Hermes store`);
    const why = refusePath(
      vault,
      path,
      entry || vault.byPath.get(path)?.role === 'hermes-store' ? 'any-markdown' : role,
      memo,
    );
    if (why) throw new Refusal(`refused path: ${why}`);
  }
}

export function checkFresh(vault: Vault, item: ProposalItem, manifest: string): void {
  const stale = item.notes
    .filter(
      (n) =>
        n.sha256 !==
        (n.entry ? (currentEntry(vault, entryKey(n))?.sha256 ?? 'absent') : fileSha(vault.byPath.get(n.path))),
    )
    .map((n) => (n.entry ? `${n.path} entry ${n.entry}` : n.path));
  if (stale.length)
    throw new Refusal(
      `stale: ${stale.join(', ')} changed since the proposal was written (or the item was already applied)`,
    );
  if (item.manifest && item.manifest !== manifest)
    throw new Refusal(
      'stale: the set of notes changed since the proposal was written (an index or catalog rewrite depends on it)',
    );
  const a = item.action;
  const mustExist =
    a.type === 'merge'
      ? [a.into, ...a.retire]
      : a.type === 'retire'
        ? a.retire
        : a.type === 'relink'
          ? [a.file, a.to]
          : a.type === 'fix-index' || a.type === 'split-index'
            ? [a.file]
            : [];
  if (a.type === 'split-index') {
    for (const m of a.moves)
      if (vault.byPath.has(m.note) || vault.otherFiles.has(m.note))
        throw new Refusal(`${m.note} already exists; the item creates it`);
  }
  const listed = new Set(item.notes.map(entryKey));
  // An archive the entries are appended to is read: its sha256 must be in the notes ("absent" when the item creates it).
  if (a.type === 'retire' && a.to !== undefined && !listed.has(a.to))
    throw new Refusal(`${a.to} is written but has no sha256 in the item's notes, so its freshness cannot be checked`);
  for (const p of mustExist) {
    if (parseEntryPath(p) ? !currentEntry(vault, p) : !vault.byPath.has(p)) throw new Refusal(`${p} does not exist`);
    if (!listed.has(p) && a.type !== 'relink')
      throw new Refusal(`${p} is acted on but has no sha256 in the item's notes, so its freshness cannot be checked`);
  }
}

/** A file over the size cap was read only in part (its head, for the security rules): never written from. */
export function wholeText(file: VaultFile): VaultFile {
  if (file?.problem?.kind === 'too-large')
    throw new Refusal(
      `${file.path} is over the size limit (${file.problem.detail}): apply does not rewrite a file it read only in part`,
    );
  return file;
}
