/**
 * Claude Code PreToolUse hook: for Write, Edit and MultiEdit of a note inside a memory folder, build
 * the content the tool would produce and answer in the hook protocol. Anything else passes at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { memoryFolderFor, type LocationContext } from '../vault/locations.js';

const edit = z.object({ old_string: z.string(), new_string: z.string(), replace_all: z.boolean().optional() }).loose();
export const hookInputSchema = z.object({
  hook_event_name: z.string().optional(),
  tool_name: z.string(),
  cwd: z.string().optional(),
  tool_input: z.object({ file_path: z.string().optional(), content: z.string().optional(), edits: z.array(edit).optional() }).loose().and(edit.partial()),
}).loose();
export type HookInput = z.infer<typeof hookInputSchema>;

export interface HookTarget { readonly vault: string; readonly path: string; readonly content: string }

/** The memory folder a file belongs to: one of the given vaults, else a known memory folder (vault/locations.ts). */
export function memoryFolderOf(file: string, vaults: readonly string[], ctx: LocationContext = { cwd: process.cwd(), env: process.env }): string | null {
  return memoryFolderFor(file, ctx, vaults);
}

function replaceOnce(text: string, oldS: string, newS: string, all: boolean | undefined): string | null {
  if (oldS === '') return null;
  if (!text.includes(oldS)) return null;
  return all ? text.split(oldS).join(newS) : text.replace(oldS, () => newS);
}

/** What the file would contain after the tool runs, or null when the hook has nothing to check. */
export function hookTarget(input: HookInput, vaults: readonly string[], env: LocationContext['env'] = process.env): HookTarget | null {
  if (!['Write', 'Edit', 'MultiEdit'].includes(input.tool_name)) return null;
  const raw = input.tool_input.file_path;
  if (!raw || !raw.toLowerCase().endsWith('.md')) return null;
  const file = isAbsolute(raw) ? raw : resolve(input.cwd ?? process.cwd(), raw);
  const vault = memoryFolderOf(file, vaults, { cwd: input.cwd ?? process.cwd(), env });
  if (!vault) return null;
  const path = relative(vault, file).split(sep).join('/');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  let content: string | null;
  if (input.tool_name === 'Write') content = input.tool_input.content ?? '';
  else if (input.tool_name === 'Edit') content = replaceOnce(current, input.tool_input.old_string ?? '', input.tool_input.new_string ?? '', input.tool_input.replace_all);
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
