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
}

export function viewLine(line: string): Viewed {
  return { view: viewSentence(plain(line)) };
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
