/**
 * Context files an agent loads on its own (CLAUDE.md, AGENTS.md, SOUL.md, .claude/rules/*.md,
 * .cursorrules) in the vault, beside it (a Hermes home), in the project root, and in the user's home.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { chooseRoot } from '../../vault/root.js';
import type { Vault } from '../../vault/model.js';

export interface ContextFile {
  /** Shown in messages: relative to the vault (`CLAUDE.md`, `../SOUL.md`), or `~/…` in the home folder. */
  readonly label: string;
  readonly absPath: string;
  readonly text: string;
}

const NAMES = ['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'SOUL.md', '.cursorrules'];
const MAX_BYTES = 1_000_000;

function readSmall(path: string): string | null {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function rulesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

const rootCache = new WeakMap<Vault, string | null>();

/** The project root as consolidate chooses it (config `root`, or decoded from ~/.claude/projects/<encoded>/memory). */
export function projectRoot(vault: Vault): string | null {
  if (!rootCache.has(vault)) rootCache.set(vault, chooseRoot(vault.root, undefined, vault.config.root).root);
  return rootCache.get(vault)!;
}

export function contextFiles(vault: Vault, home: string | null, chosenRoot?: string | null): ContextFile[] {
  const dirs = [vault.root, dirname(vault.root)];
  const root = chosenRoot === undefined ? projectRoot(vault) : chosenRoot;
  if (root) dirs.push(root, join(root, '.claude'));
  if (home) dirs.push(join(home, '.claude'), join(home, '.hermes'));
  const paths: string[] = [];
  for (const d of dirs) {
    for (const n of NAMES) paths.push(join(d, n));
    paths.push(...rulesIn(join(d, d.endsWith('.claude') ? 'rules' : join('.claude', 'rules'))));
  }
  const seen = new Set<string>();
  const out: ContextFile[] = [];
  for (const p of paths) {
    if (seen.has(p)) continue;
    seen.add(p);
    const text = readSmall(p);
    if (text === null) continue;
    const label =
      home && p.startsWith(home + sep)
        ? `~/${relative(home, p).split(sep).join('/')}`
        : relative(vault.root, p).split(sep).join('/');
    out.push({ label, absPath: p, text });
  }
  return out;
}
