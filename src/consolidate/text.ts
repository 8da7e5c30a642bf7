/** Text views of a note for comparison: normalized tokens, shingles, sentences. */
import type { VaultFile } from '../vault/model.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}][\p{L}\p{N}_.'-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

export const STOPWORDS = new Set(
  ('a an the and or but if then else of to in on at by for with from as is are was were be been being it its this that these those ' +
    'i you he she we they me my your our their there here so than too very can could should would will just also into over about ' +
    'why how apply note see do does did has have had not no').split(' '),
);

export const NEGATIONS = new Set(['not', 'no', 'never', "don't", 'dont', "doesn't", "didn't", "isn't", "aren't", "won't", "can't", 'cannot', 'without', 'avoid', 'stop', 'disable', 'disabled', 'forbid', 'forbidden', 'neither', 'nor']);

/** The text a note states: description and body, markdown syntax and front matter removed. */
export function statedText(note: VaultFile): string {
  const body = note.text.slice(note.bodyOffset);
  const desc = note.meta.description ?? '';
  return `${desc}\n${body}`
    .replace(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*(Why|How to apply):?\*\*:?/gi, ' ')
    .replace(/[*_>#`~|]+/g, ' ');
}

/** Lower-cased tokens; CJK text (no spaces) becomes one token per character. */
export function tokens(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []).map((t) => t.replace(/[.'-]+$/, ''));
}

export const isCjk = (t: string): boolean => CJK.test(t);
export const isNumberToken = (t: string): boolean => /\d/.test(t);

/** Word bigrams (character bigrams inside CJK runs), stop words dropped outside CJK. */
export function shingles(toks: readonly string[]): Set<string> {
  const kept = toks.filter((t) => isCjk(t) || !STOPWORDS.has(t));
  const out = new Set<string>();
  if (kept.length === 1) out.add(kept[0]!);
  for (let i = 0; i + 1 < kept.length; i++) out.add(`${kept[i]} ${kept[i + 1]}`);
  return out;
}

export interface Sentence {
  readonly text: string;
  /** Offset in the note's file text. */
  readonly offset: number;
  readonly line: number;
}

/** Sentences of the body (and list items, which real notes use as sentences). */
export function sentences(note: VaultFile): Sentence[] {
  const out: Sentence[] = [];
  const body = note.text.slice(note.bodyOffset);
  const re = /[^\n.!?。！？]+(?:[.!?。！？]+|$)/gm;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const raw = m[0];
    const text = raw.replace(/\*\*(Why|How to apply):?\*\*:?/gi, '').replace(/^[\s\-*+>#\d.)]+/, '').trim();
    if (text.length < 8) continue;
    const offset = note.bodyOffset + m.index + raw.indexOf(text.slice(0, 4));
    out.push({ text, offset, line: note.position(Math.max(note.bodyOffset, offset)).line });
  }
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** How much of the smaller set lies inside the larger one. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let inter = 0;
  for (const x of small) if (large.has(x)) inter++;
  return inter / small.size;
}
