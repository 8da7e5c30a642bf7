/**
 * The proposal's contract beyond its schema, in one place for the producer (consolidate), the reviewer (review),
 * the writer (apply) and guard: how a file is hashed, the vault manifest a proposal is planned against, and how
 * a Hermes store entry is named (`MEMORY.md#3`).
 */
import { count } from '../util/counters.js';
import { sha256Hex } from '../util/digest.js';
import type { Vault, VaultFile } from '../vault/model.js';

/** A file's bytes never change once loaded: each is hashed once (items name the index many times). */
const shaOf = new WeakMap<VaultFile, string>();

/** A note ref's `sha256`: the file's bytes hashed, or "absent" for a file that does not exist. */
export function fileSha(file: VaultFile | undefined): string {
  if (!file) return 'absent';
  let sha = shaOf.get(file);
  if (sha === undefined) {
    sha = sha256Hex(file.bytes);
    shaOf.set(file, sha);
  }
  return sha;
}

/**
 * A vault's manifest, once per vault: a vault and its files never change once loaded, and apply plans every trial of
 * the post-state gate against it (consolidate's gate planned ~7 times at hard 10k, each sorting 10,000 lines).
 */
const manifests = new WeakMap<Vault, string>();

/** Hash of every file path and content hash: index and catalog rewrites are planned against it. */
export function manifestOf(vault: Vault): string {
  let manifest = manifests.get(vault);
  if (manifest === undefined) {
    count('proposal.manifests');
    const lines = vault.files.map((f) => `${f.path}\t${fileSha(f)}`).sort();
    manifests.set(vault, (manifest = sha256Hex(lines.join('\n'))));
  }
  return manifest;
}

/** Entry `entry` (1-based) of the Hermes store `file`: `MEMORY.md#3` (parsed by parseEntryPath below). */
export function entryRef(file: string, entry: number): string {
  return `${file}#${entry}`;
}

/** `MEMORY.md#3` → the store file and the entry number (the inverse of entryRef). */
export function parseEntryPath(path: string): { file: string; entry: number } | null {
  const m = /^(.+\.md)#(\d+)$/i.exec(path);
  return m ? { file: m[1]!, entry: Number(m[2]) } : null;
}

/** The key of a note ref: its path, or `path#n` when it names a store entry. */
export function refKey(ref: { readonly path: string; readonly entry?: number | undefined }): string {
  return ref.entry ? entryRef(ref.path, ref.entry) : ref.path;
}
