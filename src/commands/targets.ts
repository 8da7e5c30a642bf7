/** Which vaults a command runs on: the folder given, each vault inside it, or (--all) every memory folder of the user. */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { IO } from '../io.js';
import { UsageError, VaultError } from '../util/errors.js';
import { discover } from '../vault/discover.js';
import { findMemoryFolders, folderShape, type LocationSource } from '../vault/locations.js';

export interface Target {
  readonly dir: string;
  readonly label: string;
  readonly source?: LocationSource;
}
export type Targets =
  | { readonly many: false; readonly dir: string }
  | { readonly many: true; readonly targets: readonly Target[]; readonly loose: readonly string[] };

const tilde = (p: string, home: string): string =>
  p === home || p.startsWith(home + sep) ? `~${p.slice(home.length)}` : p;

export function resolveTargets(command: string, io: IO, dir: string, all: boolean, indexFile = 'MEMORY.md'): Targets {
  if (all) {
    const home = io.env.HOME || homedir();
    const found = findMemoryFolders({ cwd: io.cwd, env: io.env });
    if (!found.length) {
      throw new UsageError(
        `${command} --all: no memory folder found (looked in ~/.claude/projects/*/memory, autoMemoryDirectory, ~/.claude/agent-memory/*, .claude/agent-memory*/* and ~/.hermes/memories)`,
      );
    }
    return {
      many: true,
      targets: found.map((l) => ({ dir: l.dir, label: tilde(l.dir, home), source: l.source })),
      loose: [],
    };
  }
  if (['MEMORY.md', 'USER.md', indexFile].some((f) => existsSync(join(dir, f)))) return { many: false, dir };
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return { many: false, dir }; // loading the vault says why
  let markdown: string[];
  try {
    markdown = discover(dir).markdown.map((f) => f.path);
  } catch (e) {
    throw new VaultError(`cannot list vault ${dir}: ${(e as Error).message}`);
  }
  const shape = folderShape(dir, markdown, indexFile);
  if (shape.kind === 'empty') {
    throw new UsageError(
      `${command}: ${dir} holds no MEMORY.md and no notes: nothing to check (give the memory folder, or --all for every memory folder of this user)`,
    );
  }
  if (shape.kind === 'vault') return { many: false, dir };
  return {
    many: true,
    targets: shape.roots.map((r) => ({ dir: r, label: relative(dir, r).split(sep).join('/') })),
    loose: shape.loose,
  };
}
