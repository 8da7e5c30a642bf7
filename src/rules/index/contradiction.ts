/**
 * The one place index rules and the index guard ask "do these two lines disagree?". It calls the
 * conflict engine through its public functions only, so it can be re-pointed when that engine moves.
 */
import { sentenceConflict, viewSentence } from '../../similarity/conflict.js';

export interface LineConflict {
  readonly kind: string;
  readonly detail: string;
}

/** An index line as the engine reads it: link syntax reduced to its title. */
const plain = (line: string): string =>
  line
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|#]+)(?:[^\]]*)\]\]/g, '$1');

export interface Viewed {
  readonly view: ReturnType<typeof viewSentence>;
  /** What `mayConflict` reads of the view. */
  readonly screen: Screen;
}

export function viewLine(line: string): Viewed {
  const view = viewSentence(plain(line));
  return { view, screen: screenOf(view) };
}

/** Content words the line is about: two lines sharing none are not compared. */
export function subjectWords(v: Viewed): ReadonlySet<string> {
  return v.view.content;
}

/** How `later` disagrees with `earlier`, or null. */
export function linesConflict(later: Viewed, earlier: Viewed): LineConflict | null {
  const c = sentenceConflict(later.view, earlier.view);
  return c ? { kind: c.kind, detail: c.detail } : null;
}

/** What of a line's view `mayConflict` reads: made once per view. */
export interface Screen {
  /** A clause rejects a tool or a term, or the line says something is gone: the engine is always asked. */
  readonly rejects: boolean;
  /** A clause holds a keyed value (`value` needs one on each side). */
  readonly values: boolean;
  /** A positive clause that rejects no tool uses one (the tool-family test needs one on each side). */
  readonly uses: boolean;
  /** Every clause's content words are among the line's: a clause pair shares at most what the lines share. */
  readonly within: boolean;
  /** Each clause's first two tokens (a substitution needs a shared prefix of two tokens at least). */
  readonly heads: readonly string[];
}

function screenOf(view: Viewed['view']): Screen {
  let rejects = view.retired.length > 0,
    values = false,
    uses = false,
    within = true;
  const heads: string[] = [];
  for (const c of view.clauses) {
    if (c.old.size > 0 || c.rejected.size > 0) rejects = true;
    if (c.values.size > 0) values = true;
    if (!c.negated && c.old.size === 0 && c.used.size > 0) uses = true;
    if (c.content !== view.content) for (const w of c.content) if (!view.content.has(w)) within = false;
    if (c.tokens.length >= 2) heads.push(`${c.tokens[0]!}\u0000${c.tokens[1]!}`);
  }
  return { rejects, values, uses, within, heads };
}

/**
 * False only when `linesConflict(later, earlier)` is null whatever the rest of the two views, given `shared`:
 * how many subject words the two lines share (`subjectWords`). It reads what `sentenceConflict` needs before it
 * can find anything: a rejected tool or term or a retired phrase on one side (replacement, retired use); a keyed
 * value on both sides (value); a tool used in a positive clause on both sides (one family, two tools); three
 * content words shared by one clause of each (polarity, antonymy: a clause pair shares at most what the lines share
 * when each clause's words are the line's); or two clauses opening with the same two tokens (substitution).
 * test/lost-correction-screen.test.ts checks it against the engine on generated lines and the corpus's.
 */
export function mayConflict(later: Viewed, earlier: Viewed, shared: number): boolean {
  const a = later.screen,
    b = earlier.screen;
  if (a.rejects || b.rejects || (a.values && b.values) || (a.uses && b.uses)) return true;
  if (shared >= 3 || !a.within || !b.within) return true;
  for (const h of a.heads) if (b.heads.includes(h)) return true;
  return false;
}
