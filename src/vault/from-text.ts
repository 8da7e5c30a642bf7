/** A vault made from text in memory: a guard draft, a merged body. Same model, no disk. */
import type { Config } from '../config/schema.js';
import { parseMarkdown } from './file.js';
import { assembleVault } from './load.js';
import type { FileRole, Vault, VaultKind } from './model.js';

export interface MemoryFile {
  readonly path: string;
  readonly text: string;
  readonly role?: FileRole;
}

const encoder = new TextEncoder();

export function vaultFromText(
  root: string,
  config: Config,
  files: readonly MemoryFile[],
  kind: VaultKind = 'claude',
): Vault {
  const parsed = files.map((f) => {
    const bytes = encoder.encode(f.text);
    return parseMarkdown(
      f.path,
      `${root}/${f.path}`,
      f.role ?? 'note',
      bytes,
      { size: bytes.length, mtimeMs: 0, mode: 0o644 },
      config.maxFileBytes,
    );
  });
  return assembleVault(root, kind, config, parsed, [], []);
}
