import type { z } from 'zod';
import { defineRule } from '../types.js';
import { lazySchema } from '../../util/lazy-zod.js';
import { unitsOf, type Unit } from './units.js';
import type { VaultFile } from '../../vault/model.js';
import { normalizeForMatching } from '../security/normalize.js';
import { matchedOnView, runnable } from '../security/patterns.js';

const optionsSchema = lazySchema((z) =>
  z
    .object({
      minHits: z
        .number()
        .int()
        .positive()
        .default(2)
        .describe('Distinct one-session details a note must hold to be reported.'),
    })
    .strict(),
);
type Options = z.infer<ReturnType<typeof optionsSchema>>;
/** What the schema gives for `{}` (test/registry.test.ts checks it): the engine uses it without loading zod. */
const DEFAULTS: Options = { minHits: 2 };

/** Where a one-session detail is, and what it is. */
export interface Residue {
  readonly offset: number;
  readonly text: string;
  readonly kind: 'temp-path' | 'session-path' | 'phrase';
}

const TEMP_PATH =
  /(?:^|[\s`'"(=:>])((?:\/private)?\/(?:var\/)?tmp\/[^\s`'")\]]+|\/var\/folders\/[^\s`'")\]]+|\$\{?TMPDIR\}?[^\s`'")\]]*|%TEMP%[^\s`'")\]]*|\\AppData\\Local\\Temp\\[^\s`'")\]]*)/g;
/** A session id (a UUID) right after a `/` or `\`: `…/projects/x/0b1c…-….jsonl`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])/i;
/** What TEMP_PATH and PHRASE need to match at all, as one cheap test each (2-3× faster than lower-casing and substring tests): most notes stop here. */
const TEMP_HINT = /\/tmp\/|tmpdir|%temp%|\\temp\\|\/var\/folders\//i;
const PHRASE_HINT =
  /session|conversation|this chat|debugging|investigating|troubleshooting|running|pid |committed|working tree/i;
const PHRASE =
  /\b(?:(?:currently|still|now) (?:debugging|investigating|troubleshooting)|(?:in |during |from |of |for )?this (?:session|conversation|chat)\b|(?:earlier|later) (?:in )?(?:this|the) (?:session|conversation)|(?:server|process|daemon) (?:is )?(?:still )?running (?:in the background|on :?\d+)|\bPID \d{2,}\b|(?:not yet|no(?:thing)?|un)committed (?:yet )?(?:this|in this) session|working tree (?:is )?dirty)/gi;
/** A note that records what went wrong (to keep a rule) may name the session it happened in. */
const RULE_OR_INCIDENT =
  /\*\*(?:Why|How to apply):?\*\*|^#{1,6}\s*(?:Why|How to apply)\b|^(?:Why|How to apply):|\b(?:incident|post-?mortem|root cause|lesson(?:s)? learned)\b/im;

/**
 * The hints' keywords in the keyword pass the security rules share over each file's normalized view (lower case,
 * ASCII runs kept in place): every match of a hint is ASCII (a case-insensitive regex of ASCII literals), so it is
 * in the view, lower-cased, wherever it is in the file. A file without them skips the hints on each of its units.
 */
const HINTS = matchedOnView({
  patterns: [
    { name: 'temp', pre: new RegExp(TEMP_HINT.source), re: TEMP_HINT },
    { name: 'phrase', pre: new RegExp(PHRASE_HINT.source), re: PHRASE_HINT },
  ],
});
const [TEMP_KEYS, PHRASE_KEYS] = HINTS.patterns;

/** Which hints a file may hold somewhere (false: none of its units holds it). */
interface MayHold {
  readonly temp: boolean;
  readonly phrase: boolean;
}

/** `keep`: the view stays memoized on the file for the security rules' pass (check); else it is made and let go. */
function hintsIn(file: VaultFile, keep: boolean): MayHold {
  const view = normalizeForMatching(file.text, keep ? file : undefined);
  const may = runnable(HINTS, view.text, view);
  return { temp: may.some((r) => r.pattern === TEMP_KEYS), phrase: may.some((r) => r.pattern === PHRASE_KEYS) };
}

const EVERY: MayHold = { temp: true, phrase: true };

export function residueIn(u: Unit, may: MayHold = EVERY): Residue[] {
  const text = u.file.text.slice(u.start, u.end);
  const out: Residue[] = [];
  // A temporary path inside a code block is part of a command kept on purpose (`nohup … > /tmp/x.log`).
  const blocks = u.codeRanges.filter(([s, e]) => u.file.text.slice(s, e).includes('\n'));
  const inBlock = (offset: number): boolean => blocks.some(([s, e]) => s <= offset && offset < e);
  if (may.temp && TEMP_HINT.test(text))
    for (const m of text.matchAll(TEMP_PATH))
      if (!inBlock(u.start + m.index))
        out.push({
          offset: u.start + m.index + m[0].indexOf(m[1]!),
          text: m[1]!.replace(/[.,;:]+$/, ''),
          kind: 'temp-path',
        });
  for (let at = text.indexOf('-'); at !== -1; at = text.indexOf('-', at + 1)) {
    // A UUID's first dash is its 9th character, right after a path separator 9 characters back.
    const i = at - 8;
    const sep = text[i - 1];
    if (i < 1 || (sep !== '/' && sep !== '\\')) continue;
    const m = UUID.exec(text.slice(i, i + 37));
    if (!m) continue;
    const start = Math.max(text.lastIndexOf(' ', i), text.lastIndexOf('`', i), text.lastIndexOf('\n', i)) + 1;
    out.push({ offset: u.start + start, text: text.slice(start, i + m[0].length), kind: 'session-path' });
  }
  if (may.phrase && PHRASE_HINT.test(text))
    for (const m of text.matchAll(PHRASE)) out.push({ offset: u.start + m.index, text: m[0].trim(), kind: 'phrase' });
  return out.sort((a, b) => a.offset - b.offset);
}

/** The unit teaches a rule or records an incident: its session details are the evidence, not residue. */
export function isRuleOrIncident(u: Unit): boolean {
  return u.file.meta.type === 'feedback' || RULE_OR_INCIDENT.test(u.file.text.slice(u.start, u.end));
}

/** One hit per distinct detail ("in this session" and "this session" are one), the first of each. */
export function distinctHits(hits: readonly Residue[]): Residue[] {
  const seen = new Map<string, Residue>();
  for (const h of hits) {
    const key =
      h.kind === 'phrase'
        ? h.text
            .toLowerCase()
            .replace(/^(?:in|during|from|of|for|earlier|later) (?:in )?/, '')
            .replace(/\bthe\b/, 'this')
            .replace(/\d+/g, '#')
        : h.text;
    if (!seen.has(key)) seen.set(key, h);
  }
  return [...seen.values()];
}

/** Context files (CLAUDE.md, AGENTS.md, SOUL.md) kept beside the notes are instructions, not memory. */
export const CONTEXT_FILE_NAMES = /(?:^|\/)(?:CLAUDE|AGENTS|SOUL|GEMINI)\.md$/i;

/**
 * `keepViews` false (consolidate's not-memory stage, which reads each file's view once): the normalized views are
 * not kept on the files (at hard 100k they held ~555 MB until the process ended).
 */
export function residueUnits(units: readonly Unit[], o: Options, keepViews = true): { unit: Unit; hits: Residue[] }[] {
  const out: { unit: Unit; hits: Residue[] }[] = [];
  let file: VaultFile | null = null;
  let may = EVERY;
  for (const unit of units) {
    if (CONTEXT_FILE_NAMES.test(unit.file.path)) continue;
    if (unit.file !== file) {
      file = unit.file;
      may = hintsIn(file, keepViews);
    }
    const hits = residueIn(unit, may);
    if (distinctHits(hits).length < o.minHits || isRuleOrIncident(unit)) continue;
    out.push({ unit, hits });
  }
  return out;
}

export default defineRule<Options>({
  id: 'memory/session-residue',
  meta: {
    description:
      'A note or store entry that holds one-session details: temporary paths, session ids in paths, "currently debugging", "this session".',
    severity: 'info',
    tags: ['memory'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Memory is loaded into every later session; a /tmp path, a process id or "this session" is false or meaningless by then, and the note spends budget saying so. Notes that teach a rule (a **Why:** / **How to apply:**, or type feedback) or record an incident are not reported: there the session is the evidence.',
      fix: 'Keep the lasting fact or rule and drop the session details, or retire the note. To keep one note as it is, add `{ "file": "<note>", "rule": "memory/session-residue", "reason": "…" }` to `reviewed` in the config.',
    },
    messages: {
      residue: '{unit} holds {count} one-session details ({examples}): state the lasting fact, or retire it',
    },
    get options() {
      return optionsSchema();
    },
    defaults: DEFAULTS,
  },
  checkFile(file, { options, report }) {
    for (const { unit, hits } of residueUnits(unitsOf(file), options)) {
      const distinct = distinctHits(hits);
      const examples = distinct
        .slice(0, 3)
        .map((h) => `"${h.text.length > 40 ? `${h.text.slice(0, 39)}…` : h.text}" line ${file.position(h.offset).line}`)
        .join(', ');
      const entry = unit.label === file.path ? 'this note' : `entry ${unit.label.slice(file.path.length + 1)}`;
      report({
        messageId: 'residue',
        file,
        offset: hits[0]!.offset,
        data: { unit: entry, count: distinct.length, examples },
      });
    }
  },
});
