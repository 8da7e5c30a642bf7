/** The one source of truth for memlint's configuration. The JSON Schema in schema/ is generated from it. */
import { z } from 'zod';
import { ITEM_KINDS } from './item-kinds.js';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

const ruleSetting = z.union([
  z.enum(['off', ...SEVERITIES]),
  z
    .object({
      severity: z.enum(['off', ...SEVERITIES]).optional(),
      options: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);

export const configSchema = z
  .object({
    $schema: z.string().optional(),
    kind: z.enum(['claude', 'hermes']).optional().describe('Vault kind; detected when absent.'),
    index: z
      .object({
        file: z.string().default('MEMORY.md'),
        maxLines: z.number().int().positive().default(200),
        maxBytes: z.number().int().positive().default(25_000),
        headroom: z
          .number()
          .gt(0)
          .lte(1)
          .default(0.9)
          .describe('index/near-budget warns past this share of either limit.'),
        measure: z
          .enum(['utf16', 'utf8'])
          .default('utf16')
          .describe('Unit of maxBytes: utf16 code units (Claude Code counts `.length`) or utf8 bytes.'),
      })
      .strict()
      .default({ file: 'MEMORY.md', maxLines: 200, maxBytes: 25_000, headroom: 0.9, measure: 'utf16' }),
    catalog: z
      .object({
        file: z.string().default('CATALOG.md'),
        required: z
          .boolean()
          .default(false)
          .describe('Report catalog/stale even when the catalog file does not exist yet.'),
      })
      .strict()
      .default({ file: 'CATALOG.md', required: false }),
    secondaryIndexes: z
      .array(z.string())
      .default([])
      .describe('Other index files (MEMORY-archive.md, CURRENT.md) whose links make notes reachable.'),
    ignore: z
      .array(z.string())
      .default([])
      .describe('Globs (relative to the vault) of markdown files that are not notes.'),
    types: z
      .array(z.string().min(1))
      .default(['user', 'feedback', 'project', 'reference'])
      .describe('Allowed values of `type`.'),
    maxFileBytes: z.number().int().positive().default(2_000_000).describe('Larger files are reported and not parsed.'),
    root: z.string().optional().describe('Project root for consolidate path checks.'),
    hermes: z
      .object({
        budgets: z.record(z.string(), z.number().int().positive()).default({ 'MEMORY.md': 2200, 'USER.md': 1375 }),
        nearBudget: z.number().gt(0).lte(1).default(0.8),
      })
      .strict()
      .default({ budgets: { 'MEMORY.md': 2200, 'USER.md': 1375 }, nearBudget: 0.8 }),
    guard: z
      .object({
        refuse: z.number().gt(0).lte(1).default(0.6).describe('Similarity at or above which guard refuses a draft.'),
        show: z
          .number()
          .gt(0)
          .lte(1)
          .default(0.35)
          .describe('Similarity at or above which a note is listed as a near-duplicate.'),
        cache: z.boolean().default(true).describe('Keep a signature cache in .memlint/cache/.'),
      })
      .strict()
      .default({ refuse: 0.6, show: 0.35, cache: true }),
    review: z
      .object({
        judge: z
          .enum(['anthropic', 'openai', 'command'])
          .optional()
          .describe('The model that advises during review (never decides).'),
        model: z.string().optional(),
        baseUrl: z
          .string()
          .optional()
          .describe('OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp) or an Anthropic proxy.'),
        command: z
          .string()
          .optional()
          .describe('For judge "command": reads the item as JSON on stdin, prints the verdict JSON.'),
        timeoutMs: z.number().int().positive().default(60_000),
        concurrency: z.number().int().positive().max(16).default(2),
      })
      .strict()
      .default({ timeoutMs: 60_000, concurrency: 2 }),
    consolidate: z
      .object({
        propose: z
          .partialRecord(z.enum(ITEM_KINDS), z.boolean())
          .default({})
          .describe(
            'Per item kind: true proposes its items (a person can approve them), false lists them under `info` only. Unset kinds follow the measured default (README: consolidate).',
          ),
      })
      .strict()
      .default({ propose: {} }),
    commitProposals: z
      .boolean()
      .default(false)
      .describe('Let git see .memlint/proposals/ (runs, journals and caches in .memlint/ stay ignored).'),
    rules: z.record(z.string(), ruleSetting).default({}).describe('Per-rule severity ("off" disables) and options.'),
    reviewed: z
      .array(
        z
          .object({
            file: z.string().min(1).describe('Vault-relative path of the note.'),
            rule: z.string().min(1).describe('The rule id whose findings a person reviewed and accepts for this file.'),
            sha256: z
              .string()
              .regex(/^[0-9a-f]{64}$/)
              .optional()
              .describe('Pin to the reviewed content: once the file changes, the findings come back.'),
            reason: z.string().min(1).describe('Why this is a false alarm (kept for the next reviewer).'),
          })
          .strict(),
      )
      .default([])
      .describe('Reviewed false alarms, silenced for one file (and, with sha256, for its reviewed content only).'),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export function defaultConfig(): Config {
  return configSchema.parse({});
}
