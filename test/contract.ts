/** The JSON shape of CONTRACT.md, as a zod schema the tests hold the output to. */
import { z } from 'zod';

export const findingJson = z
  .object({
    ruleId: z.string().regex(/^[a-z]+\/[a-z-]+$/),
    severity: z.enum(['error', 'warning', 'info']),
    file: z.string().refine((f) => !f.startsWith('/') && !f.includes('\\'), 'vault-relative with / separators'),
    line: z.number().int().positive(),
    column: z.number().int().positive(),
    message: z.string().min(1),
    data: z.record(z.string(), z.unknown()),
  })
  .loose();

export const checkJson = z.object({
  tool: z.literal('memlint'),
  version: z.string(),
  vault: z.string().refine((p) => p.startsWith('/'), 'absolute'),
  kind: z.enum(['claude', 'hermes']),
  summary: z.object({
    notes: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
    infos: z.number().int(),
  }),
  index: z
    .object({
      file: z.string(),
      lines: z.number().int(),
      bytes: z.number().int(),
      maxLines: z.number().int(),
      maxBytes: z.number().int(),
      measure: z.enum(['utf16', 'utf8']),
      loadedLines: z.number().int(),
      lostEntries: z.array(z.object({ line: z.number().int(), target: z.string().nullable(), text: z.string() })),
    })
    .nullable()
    .optional(),
  stores: z
    .array(
      z.object({ file: z.string(), chars: z.number().int(), maxChars: z.number().int(), entries: z.number().int() }),
    )
    .optional(),
  findings: z.array(findingJson),
});
