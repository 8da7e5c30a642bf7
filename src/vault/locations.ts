/**
 * Where an agent's memory lives on this machine: one answer for `check --all`, `consolidate --all`
 * and the Claude Code hook ("is this file inside a memory folder?").
 *
 * Claude Code (memdir/paths.ts, sub-agents docs):
 * - auto memory: `<config>/projects/<project>/memory/` where `<config>` is `$CLAUDE_CONFIG_DIR` or
 *   `~/.claude`; replaced by `autoMemoryDirectory` from the policy, local (`.claude/settings.local.json`)
 *   or user (`<config>/settings.json`) settings (`~/` expanded, absolute only; the committed project
 *   settings are ignored on purpose, as Claude Code does), or by `$CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`.
 * - subagent memory: `~/.claude/agent-memory/<agent>/` (user), `.claude/agent-memory/<agent>/`
 *   (project) and `.claude/agent-memory-local/<agent>/` (local) of the project.
 * Hermes: `$HERMES_HOME/memories`, else `~/.hermes/memories`.
 * Nothing here writes; the hook's path test reads at most three small settings files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';

export type LocationSource =
  | 'claude-project'
  | 'claude-auto-memory-directory'
  | 'claude-agent-user'
  | 'claude-agent-project'
  | 'claude-agent-local'
  | 'hermes'
  | 'configured';

export interface MemoryLocation {
  readonly dir: string;
  readonly source: LocationSource;
}

export interface LocationContext {
  /** The current project (where `.claude/agent-memory*` and `.claude/settings.local.json` are looked for). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const homeOf = (ctx: LocationContext): string => ctx.env.HOME || ctx.env.USERPROFILE || homedir();
export const claudeConfigDir = (ctx: LocationContext): string =>
  ctx.env.CLAUDE_CONFIG_DIR || join(homeOf(ctx), '.claude');
export const hermesMemoryDir = (ctx: LocationContext): string =>
  join(ctx.env.HERMES_HOME || join(homeOf(ctx), '.hermes'), 'memories');
const POLICY_SETTINGS =
  process.platform === 'darwin'
    ? '/Library/Application Support/ClaudeCode/managed-settings.json'
    : '/etc/claude-code/managed-settings.json';

/** As Claude Code validates it: `~/` expanded, absolute, not a root, no NUL. */
function memoryPath(raw: unknown, home: string, expandTilde: boolean): string | undefined {
  if (typeof raw !== 'string' || !raw) return undefined;
  let p = raw;
  if (expandTilde && (p.startsWith('~/') || p.startsWith('~\\'))) {
    const rest = normalize(p.slice(2) || '.');
    if (rest === '.' || rest === '..') return undefined;
    p = join(home, p.slice(2));
  }
  const n = normalize(p).replace(/[/\\]+$/, '');
  if (!isAbsolute(n) || n.length < 3 || n.includes('\0')) return undefined;
  return n.normalize('NFC');
}

function settingOf(file: string): unknown {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { autoMemoryDirectory?: unknown } | null;
    return data && typeof data === 'object' ? data.autoMemoryDirectory : undefined;
  } catch {
    return undefined;
  }
}

/** The folder `autoMemoryDirectory` (or the Cowork override) names, if any. */
export function autoMemoryDirectory(ctx: LocationContext): string | undefined {
  const home = homeOf(ctx);
  const override = memoryPath(ctx.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, home, false);
  if (override) return override;
  for (const file of [
    POLICY_SETTINGS,
    join(ctx.cwd, '.claude', 'settings.local.json'),
    join(claudeConfigDir(ctx), 'settings.json'),
  ]) {
    const raw = settingOf(file);
    if (raw !== undefined) return memoryPath(raw, home, true);
  }
  return undefined;
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const children = (p: string): string[] => {
  try {
    return readdirSync(p, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
};

/** Every memory folder of the user that exists now, each once, in a stable order. */
export function findMemoryFolders(ctx: LocationContext, configured: readonly string[] = []): MemoryLocation[] {
  const out: MemoryLocation[] = [];
  const seen = new Set<string>();
  const add = (dir: string, source: LocationSource): void => {
    const abs = resolve(dir);
    if (seen.has(abs) || !isDir(abs)) return;
    seen.add(abs);
    out.push({ dir: abs, source });
  };
  for (const v of configured) add(v, 'configured');
  const config = claudeConfigDir(ctx);
  const auto = autoMemoryDirectory(ctx);
  if (auto) add(auto, 'claude-auto-memory-directory');
  const projects = join(config, 'projects');
  for (const p of children(projects)) add(join(projects, p, 'memory'), 'claude-project');
  for (const a of children(join(config, 'agent-memory'))) add(join(config, 'agent-memory', a), 'claude-agent-user');
  for (const a of children(join(ctx.cwd, '.claude', 'agent-memory')))
    add(join(ctx.cwd, '.claude', 'agent-memory', a), 'claude-agent-project');
  for (const a of children(join(ctx.cwd, '.claude', 'agent-memory-local')))
    add(join(ctx.cwd, '.claude', 'agent-memory-local', a), 'claude-agent-local');
  add(hermesMemoryDir(ctx), 'hermes');
  return out;
}

const within = (dir: string, file: string): boolean => file.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The memory folder a file would be written into, or null when it is not memory. With `configured`
 * folders, only those count (the hook was told where the memory is). Otherwise: Claude Code's auto
 * memory and subagent memory folders and the Hermes store, never "any folder holding a MEMORY.md".
 */
export function memoryFolderFor(file: string, ctx: LocationContext, configured: readonly string[] = []): string | null {
  const abs = resolve(ctx.cwd, file);
  if (configured.length) return configured.map((v) => resolve(ctx.cwd, v)).find((v) => within(v, abs)) ?? null;
  const parts = abs.split(sep);
  // <anything>/.claude/agent-memory[-local]/<agent>/… : user and project subagent memory
  for (let i = parts.length - 3; i >= 1; i--) {
    if (
      parts[i - 1] === '.claude' &&
      (parts[i] === 'agent-memory' || parts[i] === 'agent-memory-local') &&
      parts[i + 1]
    ) {
      return parts.slice(0, i + 2).join(sep);
    }
  }
  const projects = join(claudeConfigDir(ctx), 'projects');
  if (within(projects, abs)) {
    const rest = abs.slice(projects.length + 1).split(sep);
    if (rest.length >= 3 && rest[1] === 'memory') return join(projects, rest[0]!, 'memory');
  }
  const hermes = hermesMemoryDir(ctx);
  if (within(hermes, abs)) return hermes;
  // The settings files are read only for a markdown file that matched nothing cheaper.
  const auto = autoMemoryDirectory({ ...ctx, cwd: projectRootOf(ctx.cwd) });
  if (auto && within(auto, abs)) return auto;
  return null;
}

/** The folder holding `.claude/` at or above cwd (where Claude Code was started), else cwd. */
function projectRootOf(cwd: string): string {
  let dir = resolve(cwd);
  for (let depth = 0; depth < 8; depth++) {
    if (existsSync(join(dir, '.claude', 'settings.local.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolve(cwd);
}

/** What a folder given on the command line holds: one vault, several vaults, or nothing to check. */
export type FolderShape =
  | { readonly kind: 'vault' }
  | { readonly kind: 'vaults'; readonly roots: readonly string[]; readonly loose: readonly string[] }
  | { readonly kind: 'empty' };

const ENTRY = /(^|\/)(MEMORY|USER)\.md$/;

/**
 * A folder with a MEMORY.md / USER.md (or `indexFile`) at its top is one vault. Without one, every
 * folder below holding such a file is a vault of its own (the outermost when they nest), and the
 * folder is checked vault by vault; with no markdown at all there is nothing to check.
 */
export function folderShape(dir: string, markdownPaths: readonly string[], indexFile = 'MEMORY.md'): FolderShape {
  if (markdownPaths.includes(indexFile) || markdownPaths.includes('MEMORY.md') || markdownPaths.includes('USER.md'))
    return { kind: 'vault' };
  if (markdownPaths.length === 0) return { kind: 'empty' };
  const roots: string[] = [];
  const depth = (p: string): number => p.split('/').length;
  for (const p of [...markdownPaths].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))) {
    if (!ENTRY.test(p) && !p.endsWith(`/${indexFile}`)) continue;
    const root = p.slice(0, p.lastIndexOf('/'));
    if (roots.some((r) => root === r || root.startsWith(`${r}/`))) continue;
    roots.push(root);
  }
  if (!roots.length) return { kind: 'vault' }; // notes without an index: one vault (index/missing says so)
  const loose = markdownPaths.filter((p) => !roots.some((r) => p.startsWith(`${r}/`)));
  return { kind: 'vaults', roots: roots.sort().map((r) => join(dir, ...r.split('/'))), loose };
}
