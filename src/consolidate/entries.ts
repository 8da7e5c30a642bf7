/** Hermes entries seen as notes, so the same stages compare them: path `MEMORY.md#3`. */
import { makeVaultFile, parseMarkdown } from '../vault/file.js';
import { EMPTY_META } from '../vault/meta.js';
import type { Vault, VaultFile } from '../vault/model.js';
import { entryRef } from '../proposal/refs.js';

const encoder = new TextEncoder();

export function entryNotes(vault: Vault): VaultFile[] {
  const out: VaultFile[] = [];
  for (const store of vault.stores) {
    const file = vault.byPath.get(store.file)!;
    for (const e of store.entries) {
      const bytes = encoder.encode(e.text);
      const p = parseMarkdown(
        entryRef(store.file, e.index),
        file.absPath,
        'note',
        bytes,
        { size: bytes.length, mtimeMs: file.mtimeMs, mode: file.mode },
        vault.config.maxFileBytes,
      );
      out.push(
        makeVaultFile(p, [], {
          stem: entryRef(store.file, e.index),
          bytes,
          text: e.text,
          bom: false,
          crlf: false,
          problem: null,
          frontmatter: null,
          bodyOffset: 0,
          meta: EMPTY_META,
          position: (offset: number) => file.position(e.offset + offset),
        }),
      );
    }
  }
  return out;
}
