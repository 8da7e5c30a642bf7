/**
 * Claude Code PreToolUse hook: for Write, Edit and MultiEdit of a note inside a memory folder, build
 * the content the tool would produce and answer in the hook protocol. Anything else passes at once.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/lazy-zod.js';
import { memoryFolderFor, type LocationContext } from '../vault/locations.js';

/** The payload's schema (zod, loaded on first use: parseHookInput needs it only for a payload it does not accept itself). */
export const hookInputSchema = lazySchema((z) => {
  const edit = z
    .object({ old_string: z.string(), new_string: z.string(), replace_all: z.boolean().optional() })
    .loose();
  return z
    .object({
      hook_event_name: z.string().optional(),
      tool_name: z.string(),
      cwd: z.string().optional(),
      tool_input: z
        .object({ file_path: z.string().optional(), content: z.string().optional(), edits: z.array(edit).optional() })
        .loose()
        .and(edit.partial()),
    })
    .loose();
});
export type HookInput = z.infer<ReturnType<typeof hookInputSchema>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (v: unknown, type: 'string' | 'boolean'): boolean => v === undefined || typeof v === type;
const isEdit = (e: unknown): boolean =>
  isObject(e) &&
  typeof e.old_string === 'string' &&
  typeof e.new_string === 'string' &&
  optional(e.replace_all, 'boolean');

/**
 * The hook payload, validated. Loading zod costs about as much as starting node (BENCHMARKS.md,
 * guard session 6), and every write an agent makes runs the hook: a payload this check accepts is
 * one the schema accepts (the same fields, the same types, nothing looser), and is used as parsed.
 * Anything else goes to the schema, which gives the error (the one line the hook prints).
 */
export function parseHookInput(raw: unknown): HookInput {
  if (
    isObject(raw) &&
    optional(raw.hook_event_name, 'string') &&
    typeof raw.tool_name === 'string' &&
    optional(raw.cwd, 'string') &&
    isObject(raw.tool_input)
  ) {
    const t = raw.tool_input;
    const edits = t.edits === undefined || (Array.isArray(t.edits) && t.edits.every(isEdit));
    if (
      optional(t.file_path, 'string') &&
      optional(t.content, 'string') &&
      edits &&
      optional(t.old_string, 'string') &&
      optional(t.new_string, 'string') &&
      optional(t.replace_all, 'boolean')
    )
      return raw as HookInput;
  }
  return hookInputSchema().parse(raw);
}

export interface HookTarget {
  readonly vault: string;
  readonly path: string;
  readonly content: string;
}

/** The hook checks what it can within these bounds and lets the rest through (it must never block or hang the agent). */
export const HOOK_MAX_BYTES = 4 * 1024 * 1024;

/** Something the hook will not check: it says so on stderr and lets the tool run. */
export class HookSkip extends Error {}

/** `file` with every link in the part of it that exists resolved (the rest appended as written). */
function realish(file: string): string {
  const rest: string[] = [];
  let p = file;
  for (let i = 0; i < 4096; i++) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      /* missing: resolve its folder */
    }
    const up = dirname(p);
    if (up === p) break;
    rest.push(basename(p));
    p = up;
  }
  return file;
}

const inside = (root: string, file: string): boolean => file.startsWith(root.endsWith(sep) ? root : root + sep);

/** The memory folder a file belongs to: one of the given vaults, else a known memory folder (vault/locations.ts). */
export function memoryFolderOf(
  file: string,
  vaults: readonly string[],
  ctx: LocationContext = { cwd: process.cwd(), env: process.env },
): string | null {
  if (vaults.length) {
    const real = realish(file);
    for (const v of vaults) {
      const root = resolve(v);
      if (inside(root, file)) return root;
      if (inside(realish(root), real)) return realish(root);
    }
    return null;
  }
  return memoryFolderFor(file, ctx, []) ?? memoryFolderFor(realish(file), ctx, []);
}

/** How long the text becomes after the edit, without building it (a replace_all can multiply it). */
function grownLength(text: string, oldS: string, newS: string, all: boolean | undefined): number {
  if (!all) return text.length - oldS.length + newS.length;
  let n = 0;
  for (let at = text.indexOf(oldS); at !== -1; at = text.indexOf(oldS, at + oldS.length)) n++;
  return text.length + n * (newS.length - oldS.length);
}

function replaceOnce(text: string, oldS: string, newS: string, all: boolean | undefined): string | null {
  if (oldS === '') return null;
  if (!text.includes(oldS)) return null;
  if (grownLength(text, oldS, newS, all) > HOOK_MAX_BYTES)
    throw new HookSkip(`the edited note would exceed ${HOOK_MAX_BYTES} characters`);
  return all ? text.split(oldS).join(newS) : text.replace(oldS, () => newS);
}

/** The note as it is now: '' when missing; only a regular file inside the vault, of bounded size, is read. */
function currentText(vault: string, file: string): string {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return '';
  }
  let real = file;
  if (st.isSymbolicLink()) {
    try {
      real = realpathSync(file);
    } catch {
      return '';
    }
    if (!inside(realish(vault), real)) throw new HookSkip(`${file} is a link out of the memory folder`);
    st = statSync(real);
  }
  if (!st.isFile()) throw new HookSkip(`${file} is not a regular file`);
  if (st.size > HOOK_MAX_BYTES) throw new HookSkip(`${file} is larger than ${HOOK_MAX_BYTES} bytes`);
  return readFileSync(real, 'utf8');
}

/** What the file would contain after the tool runs, or null when the hook has nothing to check. */
export function hookTarget(
  input: HookInput,
  vaults: readonly string[],
  env: LocationContext['env'] = process.env,
): HookTarget | null {
  if (!['Write', 'Edit', 'MultiEdit'].includes(input.tool_name)) return null;
  const raw = input.tool_input.file_path;
  if (!raw || !raw.toLowerCase().endsWith('.md')) return null;
  // resolve() drops `..` and `.` segments: `memory/../outside/x.md` is decided as where it lands.
  const file = resolve(input.cwd ?? process.cwd(), raw);
  const vault = memoryFolderOf(file, vaults, { cwd: input.cwd ?? process.cwd(), env });
  if (!vault) return null;
  const real = realish(file);
  const path = (inside(vault, file) ? relative(vault, file) : relative(realish(vault), real)).split(sep).join('/');
  if (input.tool_name === 'Write') {
    const content = input.tool_input.content ?? '';
    if (content.length > HOOK_MAX_BYTES) throw new HookSkip(`the note is larger than ${HOOK_MAX_BYTES} characters`);
    return { vault, path, content };
  }
  const current = currentText(vault, file);
  let content: string | null;
  if (input.tool_name === 'Edit')
    content = replaceOnce(
      current,
      input.tool_input.old_string ?? '',
      input.tool_input.new_string ?? '',
      input.tool_input.replace_all,
    );
  else {
    content = current;
    for (const e of input.tool_input.edits ?? []) {
      content = content === null ? null : replaceOnce(content, e.old_string, e.new_string, e.replace_all);
    }
  }
  return content === null ? null : { vault, path, content };
}

/** Context for the agent without a permission decision: the write goes through the normal permission flow. */
export function hookContext(context: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: context } })}\n`;
}

export function hookAnswer(decision: 'deny' | 'ask', reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`;
}
