/**
 * The proposal: what consolidate writes and a person edits, and the only input apply acts on.
 * Strict everywhere: an unknown field is a refusal, not a silent skip.
 */
import { z } from 'zod';
import { ITEM_KINDS } from '../config/item-kinds.js';

const sha256 = z.string().regex(/^([0-9a-f]{64}|absent)$/, 'a sha256 in hex, or "absent"');
const relPath = z.string().min(1);

export const noteRefSchema = z
  .object({
    path: relPath,
    sha256,
    entry: z.number().int().positive().optional().describe('Hermes store entry number'),
    name: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    modified: z.string().nullable().optional(),
    origin: z.string().nullable().optional(),
    ageDays: z.number().nullable().optional(),
  })
  .strict();

const indexLine = z.object({ line: z.number().int().positive(), text: z.string() }).strict();
/** An index line rewritten in place: `text` is what it reads now, `with` what it will read. */
const lineRewrite = z.object({ line: z.number().int().positive(), text: z.string(), with: z.string() }).strict();
/** A section of an index moved, byte for byte, into a note the item creates. */
const movedSection = z
  .object({
    from: z.number().int().positive().describe('first line of the section in the index (1-based)'),
    lines: z.array(z.string()).min(1).describe('the lines moved, as they read now (no line ends)'),
    note: relPath.describe(
      'the note created to hold them; must not exist (sections moved into one note follow each other there)',
    ),
    frontmatter: z.string().describe("front matter written above the note's first section ('' for none)"),
    pointer: z
      .string()
      .describe("the index line left in their place ('' for none: another section's pointer names the note)"),
  })
  .strict();

export const actionSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('merge'), into: relPath, retire: z.array(relPath).min(1), body: z.string().optional() })
    .strict(),
  z
    .object({
      type: z.literal('retire'),
      retire: z.array(relPath).min(1),
      to: relPath
        .optional()
        .describe(
          "Hermes entries only: the store's archive file (created or appended to) that receives the entries byte for byte, besides the holding folder",
        ),
    })
    .strict(),
  z.object({ type: z.literal('relink'), file: relPath, from: z.string().min(1), to: relPath }).strict(),
  z
    .object({
      type: z.literal('fix-index'),
      file: relPath,
      remove: z.array(indexLine).default([]),
      add: z.array(z.string()).default([]),
      replace: z.array(lineRewrite).optional(),
    })
    .strict(),
  z.object({ type: z.literal('split-index'), file: relPath, moves: z.array(movedSection).min(1) }).strict(),
  z.object({ type: z.literal('keep') }).strict(),
]);

export const SUGGESTIONS = ['merge', 'retire', 'relink', 'fix-index', 'split-index', 'keep', 'review'] as const;
export const DECISIONS = ['pending', 'approve', 'reject'] as const;

export const judgeSchema = z
  .object({
    verdict: z.enum(['merge', 'retire', 'keep', 'unsure']),
    reason: z.string(),
    model: z.string().optional(),
    mergedBody: z.string().optional(),
  })
  .strict();

export const itemSchema = z
  .object({
    id: z.string().regex(/^[a-z]+-\d{4,}$/),
    kind: z.enum(ITEM_KINDS),
    notes: z.array(noteRefSchema).min(1),
    evidence: z.record(z.string(), z.unknown()),
    suggestion: z.enum(SUGGESTIONS),
    action: actionSchema,
    /** The set of notes an index or catalog rewrite was planned against. */
    manifest: sha256.optional(),
    judge: judgeSchema.optional(),
    decision: z.enum(DECISIONS),
  })
  .strict();

/**
 * An item consolidate shows but does not propose: its kind measured below the precision a proposal
 * needs (or a person must decide what to do). Same fields as an item, no `decision`: apply never reads
 * these. `why` says why it is information only. Move one into `items` (with a decision) to act on it.
 */
export const infoItemSchema = itemSchema.omit({ decision: true, judge: true }).extend({ why: z.string() }).strict();

export const proposalSchema = z
  .object({
    version: z.literal(1),
    tool: z.string().optional(),
    vault: z.string().min(1),
    kind: z.enum(['claude', 'hermes']).optional(),
    createdAt: z.string(),
    manifest: sha256,
    summary: z.record(z.string(), z.unknown()).optional(),
    items: z.array(itemSchema),
    /** Items shown to a person, never applied (see infoItemSchema). */
    info: z.array(infoItemSchema).optional(),
  })
  .strict();

export type NoteRef = z.infer<typeof noteRefSchema>;
export type Action = z.infer<typeof actionSchema>;
export type ProposalItem = z.infer<typeof itemSchema>;
export type InfoItem = z.infer<typeof infoItemSchema>;
export type Proposal = z.infer<typeof proposalSchema>;
export type ItemKind = (typeof ITEM_KINDS)[number];
export type Suggestion = (typeof SUGGESTIONS)[number];
