import { homedir } from 'node:os';
import type { z } from 'zod';
import type { VaultFile } from '../../vault/model.js';
import { scanMarkdown } from '../../vault/scan.js';
import { computeLineStarts, positionAt } from '../../vault/decode.js';
import type { RelatedLocation } from '../types.js';
import { defineRule } from '../types.js';
import { lazySchema } from '../../util/lazy-zod.js';
import { contextFiles, type ContextFile } from './context-files.js';
import { CONTEXT_FILE_NAMES } from './session-residue.js';
import { jaccard, sentences, shingleHashes, STOPWORDS, tokens, type Sentence } from './similarity.js';
import { unitsOf, type Unit } from './units.js';

const optionsSchema = lazySchema((z) =>
  z
    .object({
      home: z
        .string()
        .nullable()
        .optional()
        .describe("Home folder whose ~/.claude and ~/.hermes context files count (default: the user's; null: none)."),
      similarity: z
        .number()
        .gt(0)
        .lte(1)
        .default(0.7)
        .describe('Word-bigram Jaccard at or above which two sentences are the same.'),
      minWords: z
        .number()
        .int()
        .positive()
        .default(5)
        .describe('Shorter sentences (in words that are not stop words) are not compared.'),
      minShare: z
        .number()
        .gt(0)
        .lte(1)
        .default(0.5)
        .describe("Share of a note's sentences that must appear in a context file."),
    })
    .strict(),
);
type Options = z.infer<ReturnType<typeof optionsSchema>>;
/** What the schema gives for `{}` (test/registry.test.ts checks it): the engine uses it without loading zod. */
const DEFAULTS: Options = { similarity: 0.7, minWords: 5, minShare: 0.5 };

interface Place {
  readonly file: ContextFile;
  readonly line: number;
  readonly text: string;
  readonly hashes: Uint32Array;
}

/** A context file's sentences, looked up by exact words and by shared word bigrams. */
export class ContextSentences {
  private readonly exact = new Map<string, Place>();
  private readonly byHash = new Map<number, Place[]>();
  constructor(
    files: readonly ContextFile[],
    private readonly o: Pick<Options, 'similarity' | 'minWords'>,
  ) {
    for (const file of files) {
      const starts = computeLineStarts(file.text);
      const view = {
        text: file.text,
        bodyOffset: 0,
        codeRanges: scanMarkdown(file.text, 0).codeRanges,
        position: (off: number) => positionAt(starts, off),
      };
      for (const s of sentences(view)) {
        const key = this.key(s.text);
        if (key === null) continue;
        const place: Place = { file, line: s.line, text: s.text, hashes: shingleHashes(tokens(s.text)) };
        if (!this.exact.has(key)) this.exact.set(key, place);
        for (const h of place.hashes) {
          const list = this.byHash.get(h);
          if (list) list.push(place);
          else this.byHash.set(h, [place]);
        }
      }
    }
  }
  get size(): number {
    return this.exact.size;
  }

  /** Words that are not stop words, joined; null for a sentence too short to compare. */
  key(text: string): string | null {
    const kept = tokens(text).filter((t) => !STOPWORDS.has(t));
    return kept.length >= this.o.minWords ? kept.join(' ') : null;
  }

  /** Where a sentence appears (near-)verbatim, or null. */
  find(text: string): Place | null {
    const key = this.key(text);
    if (key === null) return null;
    const hit = this.exact.get(key);
    if (hit) return hit;
    const hashes = shingleHashes(tokens(text));
    const counts = new Map<Place, number>();
    for (const h of hashes) for (const p of this.byHash.get(h) ?? []) counts.set(p, (counts.get(p) ?? 0) + 1);
    let best: Place | null = null,
      bestScore = 0;
    for (const [p, n] of counts) {
      // Jaccard needs at least this many shared bigrams: most candidates stop here.
      if (n < this.o.similarity * Math.max(hashes.length, p.hashes.length)) continue;
      const j = jaccard(hashes, p.hashes);
      if (j >= this.o.similarity && j > bestScore) {
        best = p;
        bestScore = j;
      }
    }
    return best;
  }
}

export interface ContextDuplicate {
  readonly unit: Unit | null;
  readonly file: VaultFile;
  readonly total: number;
  readonly matches: readonly { readonly sentence: Sentence; readonly place: Place }[];
}

function unitSentences(u: Unit): Sentence[] {
  const view = {
    text: u.file.text.slice(0, u.end),
    bodyOffset: u.start,
    codeRanges: u.codeRanges,
    position: (off: number) => u.file.position(off),
  };
  return sentences(view);
}

/** Notes and store entries most of whose sentences sit in a context file; index lines that do. */
export function contextDuplicates(
  files: readonly VaultFile[],
  ctx: ContextSentences,
  o: Pick<Options, 'minShare'>,
): ContextDuplicate[] {
  const out: ContextDuplicate[] = [];
  if (ctx.size === 0) return out;
  for (const file of files) {
    if (CONTEXT_FILE_NAMES.test(file.path)) continue;
    if (file.role === 'index' || file.role === 'secondary-index') {
      for (const s of unitSentences({
        file,
        label: file.path,
        start: 0,
        end: file.text.length,
        codeRanges: file.codeRanges,
      })) {
        const place = ctx.find(s.text);
        if (place) out.push({ unit: null, file, total: 1, matches: [{ sentence: s, place }] });
      }
      continue;
    }
    for (const unit of unitsOf(file)) {
      const all = unitSentences(unit).filter((s) => ctx.key(s.text) !== null);
      if (all.length === 0) continue;
      const matches = all.flatMap((sentence) => {
        const place = ctx.find(sentence.text);
        return place ? [{ sentence, place }] : [];
      });
      if (matches.length > 0 && matches.length >= all.length * o.minShare)
        out.push({ unit, file, total: all.length, matches });
    }
  }
  return out;
}

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 59)}…` : s);

export default defineRule<Options>({
  id: 'memory/duplicates-context-file',
  meta: {
    description:
      'A note, store entry or index line whose sentences already sit (near-)verbatim in CLAUDE.md, AGENTS.md, SOUL.md, .claude/rules/*.md or .cursorrules.',
    severity: 'info',
    tags: ['memory', 'budget'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'The agent loads its context files in every session anyway: a memory that repeats them spends the budget twice, and when one copy is edited the two disagree (Claude Code issue #38402).',
      fix: 'Retire the note (or the index line) and keep the context file as the one home of the rule; if the note adds something, trim it to that. Context files are looked for in the vault, beside it, in the project root (config `root`, as consolidate finds it) and in ~/.claude and ~/.hermes. To keep one note, add `{ "file": "<note>", "rule": "memory/duplicates-context-file", "reason": "…" }` to `reviewed` in the config.',
    },
    messages: {
      note: '{matched} of {total} sentences of {unit} already appear in {context}:{line} ("{example}"): the agent loads them from there',
      line: 'this index line already appears in {context}:{line} ("{example}"): the agent loads it from there',
    },
    get options() {
      return optionsSchema();
    },
    defaults: DEFAULTS,
    readsOutsideVault: true,
  },
  check({ vault, options, report }) {
    const home = options.home === undefined ? homedir() : options.home;
    const ctx = new ContextSentences(contextFiles(vault, home), options);
    // No context file: nothing to compare, and the vault's files are not asked for (check --cache of an
    // unchanged vault then never builds them).
    if (ctx.size === 0) return;
    for (const d of contextDuplicates(vault.files, ctx, options)) {
      const first = d.matches[0]!;
      const related: RelatedLocation[] = d.matches
        .slice(0, 5)
        .map((m) => ({ file: m.place.file.label, line: m.place.line, column: 1, message: clip(m.place.text) }));
      const data = {
        context: first.place.file.label,
        line: first.place.line,
        example: clip(first.sentence.text),
        matched: d.matches.length,
        total: d.total,
      };
      if (d.unit === null) report({ messageId: 'line', file: d.file, offset: first.sentence.offset, data, related });
      else {
        const unit = d.unit.label === d.file.path ? 'this note' : `entry ${d.unit.label.slice(d.file.path.length + 1)}`;
        report({ messageId: 'note', file: d.file, offset: first.sentence.offset, data: { ...data, unit }, related });
      }
    }
  },
});
