/**
 * A small engine for pattern rules: each pattern has a name and a regex run on the normalized text
 * (security/normalize.ts); findings map back to raw positions. Patterns are anchored on attack
 * vocabulary, not on firm English ("you must", "never" are everywhere in real notes).
 */
import type { VaultFile } from '../../vault/model.js';
import type { Report } from '../types.js';
import { isReadable } from '../reachability.js';
import { normalizeForMatching, rawOffset } from './normalize.js';
import { KeywordSets, literalsOf, type LetterRun } from '../../util/keywords.js';

export interface Pattern {
  readonly name: string;
  readonly re: RegExp;
  /** Return false to drop a match (placeholders, redactions). Gets the whole (matching-view) text too. */
  readonly accept?: (match: RegExpExecArray, text: string) => boolean;
  /** Drop a match that starts inside a code span or fenced block (markup there is shown, not hidden). */
  readonly outsideCode?: boolean;
  /**
   * The keywords the pattern needs (a cheap regex): the pattern runs only when this matches
   * somewhere in the text. When it is only literals (alternatives, escaped punctuation, small
   * classes and groups: `literalsOf`), every such pattern's keywords are found in one pass over the
   * text (src/util/keywords.ts); otherwise it is tested on the text itself.
   */
  readonly pre?: RegExp;
  /**
   * More keywords every match holds (one of them at least), beside `pre`: the pattern runs only when the
   * text has both. For a pattern whose `pre` is common in text that never matches (`rc\b`, `token`) while
   * a match always holds something rarer (`>>` or `tee`; a quote). Found like `pre`: one pass over the
   * text for every literal keyword, else tested on the text itself.
   */
  readonly needs?: RegExp;
  /**
   * A run of single letters every match holds (for a pattern without keywords: spaced-out letters): the
   * pattern runs only when the text has it, found in the same pass as the literal keywords.
   */
  readonly run?: LetterRun;
  /** This match's severity, when it differs from the rule's. */
  readonly severity?: 'error' | 'warning' | 'info';
}

/** A rule's patterns with a cheap prefilter: a note without any trigger word is not scanned. */
export interface PatternSet {
  /** Without it, the patterns' own keywords (`pre`) are the prefilter. */
  readonly trigger?: RegExp;
  readonly patterns: readonly Pattern[];
}

export interface PatternHit {
  readonly file: VaultFile;
  readonly pattern: Pattern;
  readonly offset: number;
  readonly length: number;
  readonly match: RegExpExecArray;
  /** The matched text as the file has it (not normalized), for messages. */
  readonly raw: string;
}

interface Compiled {
  /** `bit`, `needsBit`: the keyword sets of `pre` and `needs` (-1: tested as a regex); `runBit`: the letter run's (-1: none). */
  readonly patterns: readonly { pattern: Pattern; re: RegExp; bit: number; needsBit: number; runBit: number }[];
  /** The automaton the bits are of: the literal keywords of the patterns (and a letter run), null if none. */
  readonly keywords: KeywordSets | null;
  /**
   * The automaton's answer per normalized view, shared by every set compiled onto it (those registered with
   * `matchedOnView`: one pass over a view for all of them). A file's view is one object while the file lives.
   */
  readonly viewBits: WeakMap<object, number>;
}

const compiledSets = new WeakMap<PatternSet, Compiled>();

/** Sets their rules match on the normalized view (`scanPatterns`' default), registered as their modules load. */
const onView: PatternSet[] = [];

/**
 * Registers a set that `scanPatterns` matches on each file's normalized view. The keywords of every set
 * registered before the first scan are found in one pass over a view, its bits kept for the other sets
 * (the rules run one after another over every file). A set registered later, or not at all, has its own pass.
 */
export function matchedOnView<S extends PatternSet>(set: S): S {
  if (!compiledSets.has(set)) onView.push(set);
  return set;
}

/** Literals stand for a regex only without flags that change what they match (`m` does not). */
const literalsFor = (pre: RegExp | undefined): string[] | null =>
  pre && !/[iuvsy]/.test(pre.flags) ? literalsOf(pre.source) : null;

/**
 * Compiles `sets` onto one automaton: each pattern's `pre` and `needs` that are only literals become a set of
 * it (while there is room: past it, tested as a regex), and the first letter run asked for is counted in its
 * pass (a pattern asking for another runs without that gate).
 */
function compileAll(sets: readonly PatternSet[]): void {
  const literalSets: string[][] = [];
  let run: LetterRun | undefined;
  for (const set of sets) for (const p of set.patterns) run ??= p.run;
  const room = run ? 30 : 31;
  const bitOf = (pre: RegExp | undefined): number => {
    const literals = literalSets.length < room ? literalsFor(pre) : null;
    if (!literals) return -1;
    literalSets.push(literals);
    return literalSets.length - 1;
  };
  const built = sets.map((set) =>
    set.patterns.map((pattern) => {
      const re = new RegExp(
        pattern.re.source,
        pattern.re.flags.includes('g') ? pattern.re.flags : `${pattern.re.flags}g`,
      );
      const runBit = run && pattern.run && sameRun(pattern.run, run) ? KeywordSets.RUN_BIT : -1;
      return { pattern, re, bit: bitOf(pattern.pre), needsBit: bitOf(pattern.needs), runBit };
    }),
  );
  const keywords = literalSets.length || run ? new KeywordSets(literalSets, false, run) : null;
  const viewBits = new WeakMap<object, number>();
  sets.forEach((set, i) => compiledSets.set(set, { patterns: built[i]!, keywords, viewBits }));
}

const sameRun = (a: LetterRun, b: LetterRun): boolean =>
  a.letters === b.letters && a.gap === b.gap && a.separators === b.separators;

function compiled(set: PatternSet): Compiled {
  let c = compiledSets.get(set);
  if (!c) {
    // The first scan compiles every set registered so far onto one automaton (if this is one of them).
    const group = onView.includes(set) ? onView.splice(0) : [set];
    compileAll(group);
    c = compiledSets.get(set)!;
  }
  return c;
}

/**
 * The patterns of `set` that may match in `text`, in order: none without the set's trigger, and of
 * the rest those whose keywords (`pre`, `needs`) and letter run the text has (one pass over it for every
 * literal keyword). `view`: the normalized view `text` is of, whose bits are kept for the other sets.
 */
export function runnable(
  set: PatternSet,
  text: string,
  view?: object,
): readonly { readonly pattern: Pattern; readonly re: RegExp }[] {
  const c = compiled(set);
  let present = 0;
  if (c.keywords) {
    const kept = view ? c.viewBits.get(view) : undefined;
    present = kept ?? c.keywords.present(text);
    if (kept === undefined && view) c.viewBits.set(view, present);
  }
  const has = (pre: RegExp | undefined, bit: number): boolean =>
    !pre || (bit >= 0 ? (present & (1 << bit)) !== 0 : pre.test(text));
  // The keywords found in the pass first: a keyword tested as a regex is tested only when they are there.
  const out = c.patterns.filter(
    ({ pattern, bit, needsBit, runBit }) =>
      (runBit < 0 || (present & (1 << runBit)) !== 0) &&
      (needsBit >= 0
        ? has(pattern.needs, needsBit) && has(pattern.pre, bit)
        : has(pattern.pre, bit) && has(pattern.needs, needsBit)),
  );
  // The trigger last: nothing runs without it, so it is tested only when something would.
  return out.length > 0 && set.trigger && !set.trigger.test(text) ? [] : out;
}

/**
 * Inside a fenced or indented code block or a code span. The scanner's code ranges also hold HTML
 * blocks and comments (no links there); those are not code: their markup is hidden when rendered.
 */
function inCode(file: VaultFile, at: number): boolean {
  for (const [s, e] of file.codeRanges) {
    if (at < s || at >= e) continue;
    const head = file.text.slice(s, s + 8);
    if (/^(?: {0,3}(?:```|~~~)| {4}|\t|`)/.test(head)) return true;
  }
  return false;
}

export function* scanPatterns(file: VaultFile, set: PatternSet, normalized = true): Generator<PatternHit> {
  if (!isReadable(file) && file.problem?.kind !== 'too-large') return; // too large: its loaded head is scanned
  const view = normalized ? normalizeForMatching(file.text, file) : { text: file.text, map: null };
  for (const { pattern, re } of runnable(set, view.text, normalized ? view : undefined)) {
    re.lastIndex = 0;
    for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (pattern.accept && !pattern.accept(m, view.text)) continue;
      const start = normalized ? rawOffset(view, m.index) : m.index;
      if (pattern.outsideCode && inCode(file, start)) continue;
      const end = normalized ? rawOffset(view, m.index + m[0].length - 1) + 1 : m.index + m[0].length;
      yield {
        file,
        pattern,
        offset: start,
        length: Math.max(1, end - start),
        match: m,
        raw: file.text.slice(start, end),
      };
    }
  }
}

/** The report every phrase rule makes: the kind of pattern and the text as the file has it. */
export function reportPatternHits(
  file: VaultFile,
  report: (r: Report) => void,
  set: PatternSet,
  messageId: string,
): void {
  for (const hit of scanPatterns(file, set)) {
    report({
      messageId,
      file: hit.file,
      offset: hit.offset,
      length: hit.length,
      ...(hit.pattern.severity ? { severity: hit.pattern.severity } : {}),
      data: { kind: hit.pattern.name, excerpt: hit.raw.trim().replace(/\s+/g, ' ').slice(0, 80) },
    });
  }
}
