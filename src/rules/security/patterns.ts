/**
 * A small engine for pattern rules: each pattern has a name and a regex run on the normalized text
 * (security/normalize.ts); findings map back to raw positions. Patterns are anchored on attack
 * vocabulary, not on firm English ("you must", "never" are everywhere in real notes).
 */
import type { VaultFile } from '../../vault/model.js';
import type { Report } from '../types.js';
import { isReadable } from '../reachability.js';
import { normalizeForMatching, rawOffset } from './normalize.js';
import { KeywordSets, leadingLiterals, literalsOf, startsCut, startsOf } from '../../util/keywords.js';

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

/**
 * A regex tried, sticky, only where one of its leading literals (set `bit` of the keywords, or of
 * the case-folded keywords for an `i` regex) starts.
 */
interface Windowed {
  /** The regex as given (tested whole when its starts are too many to be worth trying one by one). */
  readonly re: RegExp;
  readonly sticky: RegExp;
  readonly bit: number;
  readonly folded: boolean;
}

interface CompiledPattern {
  readonly pattern: Pattern;
  /** The pattern, global. */
  readonly re: RegExp;
  /** Its `pre`'s bit in `keywords` (only literals), or -1. */
  readonly bit: number;
  /** Its `pre` when that is not only literals but has leading literals. */
  readonly preAt: Windowed | null;
  /** The pattern through its leading literals, or null (the global regex runs). */
  readonly at: Windowed | null;
}

interface Compiled {
  readonly patterns: readonly CompiledPattern[];
  /** The set's trigger through its leading literals, or null (tested as a regex, when there is one). */
  readonly triggerAt: Windowed | null;
  /**
   * One set (bit) per pattern whose `pre` is only literals, and one per regex (pattern, `pre` or
   * trigger) whose matches all start with one of a few literals (`leadingLiterals`; a pattern's
   * bit is its `pre`'s when the two sets are equal): found, with where the leading literals start,
   * in one pass over the text.
   */
  readonly keywords: KeywordSets | null;
  /** The bits of leading literals. */
  readonly startMask: number;
  /** The leading literals of `i` regexes, case-folded: a second pass, made only when one of them runs. */
  readonly folded: KeywordSets | null;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.includes(x));

const compiledSets = new WeakMap<PatternSet, Compiled>();

function compiled(set: PatternSet): Compiled {
  let c = compiledSets.get(set);
  if (!c) {
    const sets: string[][] = [];
    const foldedSets: string[][] = [];
    let startMask = 0;
    // Leading literals are searched as written, and those of an `i` regex (lower-cased) case-folded.
    const windowed = (re: RegExp, reuse = -1): Windowed | null => {
      const flags = re.flags.replace(/[gy]/g, '');
      const lead = leadingLiterals(re);
      if (!lead) return null;
      const sticky = new RegExp(re.source, `${flags}y`);
      const whole = new RegExp(re.source, flags);
      if (flags.includes('i'))
        return foldedSets.length < 31 ? { re: whole, sticky, bit: foldedSets.push(lead) - 1, folded: true } : null;
      let bit = reuse >= 0 && sameSet(lead, sets[reuse]!) ? reuse : -1;
      if (bit < 0 && sets.length < 31) bit = sets.push(lead) - 1;
      if (bit < 0) return null;
      startMask |= 1 << bit;
      return { re: whole, sticky, bit, folded: false };
    };
    // Literals stand for the regex only without flags that change what they match (`m` does not).
    const pres = set.patterns.map((p) => {
      const literals = p.pre && !/[iuvsy]/.test(p.pre.flags) && sets.length < 31 ? literalsOf(p.pre.source) : null;
      return literals ? sets.push(literals) - 1 : -1;
    });
    const triggerAt = set.trigger ? windowed(set.trigger) : null;
    const patterns = set.patterns.map((pattern, k): CompiledPattern => ({
      pattern,
      re: new RegExp(pattern.re.source, `${pattern.re.flags.replace(/[gy]/g, '')}g`),
      bit: pres[k]!,
      preAt: pattern.pre && pres[k]! < 0 ? windowed(pattern.pre) : null,
      at: windowed(pattern.re, pres[k]),
    }));
    c = {
      patterns,
      triggerAt,
      keywords: sets.length ? new KeywordSets(sets) : null,
      startMask,
      folded: foldedSets.length ? new KeywordSets(foldedSets, true) : null,
    };
    compiledSets.set(set, c);
  }
  return c;
}

/** One text's keyword pass: which keywords it holds, and where leading literals start. */
class TextScan {
  readonly present: number;
  private readonly starts: number[] = [];
  private foldedStarts: number[] | null = null;

  constructor(
    private readonly c: Compiled,
    readonly text: string,
    private readonly limit: number,
  ) {
    this.present = c.keywords ? c.keywords.scan(text, c.startMask, this.starts, limit) : 0;
  }

  /** Where `w`'s leading literals start, ascending; null when there are too many to try one by one. */
  startsIn(w: Windowed): number[] | null {
    if (!w.folded) return startsCut(this.starts) ? null : startsOf(this.starts, w.bit);
    if (!this.foldedStarts) {
      this.foldedStarts = [];
      this.c.folded!.scan(this.text, -1, this.foldedStarts, this.limit);
    }
    return startsCut(this.foldedStarts) ? null : startsOf(this.foldedStarts, w.bit);
  }
}

/**
 * Starts recorded per unit of text at most (then none is tried one by one and each regex runs whole,
 * which finds the same matches): past about one start in 32 units, one sticky try per start costs
 * more than one pass of the regex (notes full of a common leading word).
 */
const startLimit = (text: string): number => 8 + (text.length >> 5);

/** 'auto': windowed unless the starts are too many (`startLimit`); the tests compare 'always' with 'never'. */
export type Windowing = 'auto' | 'always' | 'never';

/** Whether `w`'s regex matches somewhere in the text: at one of its starts (every match begins at one). */
function matchesAt(w: Windowed, scan: TextScan): boolean {
  const starts = scan.startsIn(w);
  if (!starts) return w.re.test(scan.text);
  for (const at of starts) {
    w.sticky.lastIndex = at;
    if (w.sticky.test(scan.text)) return true;
  }
  return false;
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
  const c = compiled(set);
  // Which patterns' keywords the text has, and where leading literals start (one pass).
  const scan = new TextScan(c, view.text, startLimit(view.text));
  const [trigger, ...pres] = gates(set, c, scan, 'auto');
  if (!trigger) return;
  // A pattern without its keywords is skipped.
  const runs = c.patterns.filter((_, k) => pres[k]);
  for (const run of runs) {
    const { pattern } = run;
    for (const m of matches(run, scan, 'auto')) {
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

/**
 * The non-empty matches of a pattern, as its global regex finds them from the start: leftmost
 * first, each search resuming where the last match ended (one unit on from an empty one). A
 * pattern with leading literals is tried, sticky, only where one of them starts: every match starts
 * at one (`leadingLiterals`), and the match a sticky regex finds at an index is the one the global
 * search finds there, so trying the starts in order from the resume point gives the same matches.
 */
function* matches(run: CompiledPattern, scan: TextScan, mode: Windowing): Generator<RegExpExecArray> {
  const { re, at: w } = run;
  const { text } = scan;
  const starts = w && mode !== 'never' ? scan.startsIn(w) : null;
  if (!w || !starts) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      yield m;
    }
    return;
  }
  let resume = 0;
  for (const at of starts) {
    if (at < resume) continue;
    w.sticky.lastIndex = at;
    const m = w.sticky.exec(text);
    if (!m) continue;
    if (m[0].length === 0) {
      resume = at + 1;
      continue;
    }
    resume = at + m[0].length;
    yield m;
  }
}

/**
 * Whether the set's trigger holds and then whether each pattern's `pre` does, through the keyword
 * pass (unless `mode` is 'never') or each regex tested on the text (test/keywords.test.ts compares them).
 */
function gates(set: PatternSet, c: Compiled, scan: TextScan, mode: Windowing): boolean[] {
  const windowed = mode !== 'never';
  const { present, text } = scan;
  const holds = (re: RegExp, at: Windowed | null): boolean => (windowed && at ? matchesAt(at, scan) : re.test(text));
  return [
    !set.trigger || holds(set.trigger, c.triggerAt),
    ...c.patterns.map(
      ({ pattern, bit, preAt }) =>
        !pattern.pre || (windowed && bit >= 0 ? (present & (1 << bit)) !== 0 : holds(pattern.pre, preAt)),
    ),
  ];
}

/** The trigger's and every `pre`'s answer on `text`, through the keyword pass or the regexes alone. */
export function patternGates(set: PatternSet, text: string, mode: Windowing): boolean[] {
  const c = compiled(set);
  return gates(set, c, new TextScan(c, text, mode === 'always' ? Infinity : startLimit(text)), mode);
}

/**
 * Every pattern's matches in `text` (the matching view), keywords or not: `[pattern index, match
 * index, matched text]`, through the leading literals ('always'), the global regex alone ('never'), or
 * as `scanPatterns` chooses ('auto').
 * The test that the two agree (test/keywords.test.ts) is what lets `scanPatterns` skip the regex.
 */
export function patternMatches(set: PatternSet, text: string, mode: Windowing): [number, number, string][] {
  const scan = new TextScan(compiled(set), text, mode === 'always' ? Infinity : startLimit(text));
  return compiled(set).patterns.flatMap((run, k) =>
    [...matches(run, scan, mode)].map((m): [number, number, string] => [k, m.index, m[0]]),
  );
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
