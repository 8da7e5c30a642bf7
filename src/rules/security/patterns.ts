/**
 * A small engine for pattern rules: each pattern has a name and a regex run on the normalized text
 * (security/normalize.ts); findings map back to raw positions. Patterns are anchored on attack
 * vocabulary, not on firm English ("you must", "never" are everywhere in real notes).
 */
import type { VaultFile } from '../../vault/model.js';
import type { Report } from '../types.js';
import { isReadable } from '../reachability.js';
import { normalizeForMatching, rawOffset } from './normalize.js';
import { KeywordSets, literalsOf } from '../../util/keywords.js';

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
  /** `bit`, `needsBit`: the keyword sets of `pre` and `needs` (-1: tested as a regex). */
  readonly patterns: readonly { pattern: Pattern; re: RegExp; bit: number; needsBit: number }[];
  /** The literal keywords of every pattern whose `pre` is only literals, one set (bit) per pattern. */
  readonly keywords: KeywordSets | null;
}

const compiledSets = new WeakMap<PatternSet, Compiled>();

function compiled(set: PatternSet): Compiled {
  let c = compiledSets.get(set);
  if (!c) {
    const sets: string[][] = [];
    // Literals stand for the regex only without flags that change what they match (`m` does not).
    const bitOf = (pre: RegExp | undefined): number => {
      const literals = pre && !/[iuvsy]/.test(pre.flags) && sets.length < 31 ? literalsOf(pre.source) : null;
      if (!literals) return -1;
      sets.push(literals);
      return sets.length - 1;
    };
    const patterns = set.patterns.map((pattern) => {
      const re = new RegExp(
        pattern.re.source,
        pattern.re.flags.includes('g') ? pattern.re.flags : `${pattern.re.flags}g`,
      );
      return { pattern, re, bit: bitOf(pattern.pre), needsBit: bitOf(pattern.needs) };
    });
    c = { patterns, keywords: sets.length ? new KeywordSets(sets) : null };
    compiledSets.set(set, c);
  }
  return c;
}

/**
 * The patterns of `set` that may match in `text`, in order: none without the set's trigger, and of
 * the rest those whose keywords (`pre`, `needs`) the text has (one pass over it for every literal keyword).
 */
export function runnable(set: PatternSet, text: string): readonly { readonly pattern: Pattern; readonly re: RegExp }[] {
  if (set.trigger && !set.trigger.test(text)) return [];
  const c = compiled(set);
  const present = c.keywords ? c.keywords.present(text) : 0;
  const has = (pre: RegExp | undefined, bit: number): boolean =>
    !pre || (bit >= 0 ? (present & (1 << bit)) !== 0 : pre.test(text));
  // The keywords found in the pass first: a keyword tested as a regex is tested only when they are there.
  return c.patterns.filter(({ pattern, bit, needsBit }) =>
    needsBit >= 0
      ? has(pattern.needs, needsBit) && has(pattern.pre, bit)
      : has(pattern.pre, bit) && has(pattern.needs, needsBit),
  );
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
  for (const { pattern, re } of runnable(set, view.text)) {
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
