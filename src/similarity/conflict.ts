/**
 * Whether two sentences about one subject disagree: opposite polarity, different values for the
 * same key, or a replaced tool. Anchored on shared content words so that firm English ("never",
 * "always") does not fire across subjects.
 */
import type { VaultFile } from '../vault/model.js';
import { areAntonyms, normalizeNumber, typoLevel } from './lexicon.js';
import { claimConflict, claimSentences, noteClaims, type NoteClaims, type SharedFrames } from './claims.js';
import { isCjk, NEGATIONS, sentences, STOPWORDS, tokens, type Sentence } from './text.js';

export type ConflictKind = 'polarity' | 'value' | 'replacement' | 'retired' | 'substitution';

export interface Conflict {
  readonly kind: ConflictKind;
  readonly detail: string;
}

/** Interchangeable tools: two notes each using a different one for the same job disagree. */
export const TOOL_FAMILIES: readonly (readonly string[])[] = [
  ['jest', 'vitest', 'mocha', 'jasmine', 'ava', 'pytest', 'unittest', 'nose'],
  ['npm', 'pnpm', 'yarn', 'bun'],
  ['webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'turbopack', 'rspack'],
  ['eslint', 'biome', 'tslint', 'oxlint'],
  ['prettier', 'dprint', 'biome'],
  ['postgres', 'postgresql', 'mysql', 'mariadb', 'sqlite', 'mongodb', 'dynamodb'],
  ['pip', 'poetry', 'uv', 'pipenv', 'conda', 'pdm'],
  ['docker', 'podman'],
  ['react', 'vue', 'svelte', 'angular', 'preact'],
  ['express', 'fastify', 'koa', 'hono', 'nestjs'],
  ['black', 'ruff', 'autopep8', 'yapf'],
  ['mypy', 'pyright', 'pyre'],
  ['tabs', 'spaces'],
];
const FAMILIES_OF = new Map<string, Set<number>>();
TOOL_FAMILIES.forEach((f, i) => f.forEach((t) => FAMILIES_OF.set(t, (FAMILIES_OF.get(t) ?? new Set()).add(i))));
function sameFamily(a: string, b: string): boolean {
  const of = FAMILIES_OF.get(b);
  if (of) for (const f of FAMILIES_OF.get(a) ?? []) if (of.has(f)) return true;
  return false;
}

/** How many words two sets share (`shared(a, b).length`, without building the list). */
function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

const DATE = /^\d{4}-\d{2}(-\d{2})?$|^\d{1,2}[/:]\d{2}/;
const NUMBER = /^v?\d+(?:[.,]\d+)*$/;
const REPLACED =
  /\b(?:replaced|switched (?:from|to)|migrated (?:from|to)|moved (?:away )?from|instead of|no longer|dropped|removed|deprecated|retired|is gone|are gone|not installed|decommissioned)\b/;
/** "<term> is gone / was removed / is decommissioned": the words before it name something retired. */
const RETIRED =
  /((?:[\p{L}\p{N}_.-]+\s+){0,2}[\p{L}\p{N}_.-]+)\s+(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:gone|removed|deprecated|decommissioned|dropped|retired|deleted|obsolete|not installed)\b/giu;
/** Every match of RETIRED holds one of these (same flags): a cheap test that skips RETIRED on most text. */
const RETIRED_WORD = /gone|removed|deprecated|decommissioned|dropped|retired|deleted|obsolete|installed/iu;
/** Words after which a filler sits in an argument slot, besides the stop words ("use X", "prefers X", "set X"). */
const FRAME_ENDS = new Set([
  'use',
  'uses',
  'prefer',
  'prefers',
  'want',
  'wants',
  'set',
  'sets',
  'default',
  'defaults',
  'pin',
  'pins',
  'choose',
  'pick',
  'target',
  'targets',
  'like',
  'likes',
  'is',
  'are',
  'be',
  'against',
  'under',
  'using',
]);
/** Words by which a clause refuses what it names, besides negation. */
const REFUSALS = new Set([
  'dangerous',
  'unsafe',
  'unreliable',
  'harmful',
  'forbidden',
  'prohibited',
  'banned',
  'deprecated',
  'broken',
  'wrong',
  'bypass',
  'skip',
]);
/** Verbs saying the thing after them is gone or refused. */
const REJECT_VERBS = new Set([
  'dropped',
  'removed',
  'replaced',
  'deprecated',
  'retired',
  'banned',
  'abandoned',
  'ditched',
  'stopped',
  'forbade',
  'forbid',
  'forbids',
  'prohibits',
  'disallows',
]);

export interface ClauseView {
  readonly text: string;
  readonly tokens: readonly string[];
  readonly content: ReadonlySet<string>;
  readonly negated: boolean;
  readonly values: ReadonlyMap<string, string>;
  /** Every number of the clause, normalized (3.86.0 → 3.86, 8,686 → 8686). */
  readonly numbers: ReadonlySet<string>;
  /** The word right after each number (its unit: "119 ms", "8686 calls"), when there is one. */
  readonly units: ReadonlyMap<string, string>;
  readonly tools: ReadonlySet<string>;
  readonly replaces: boolean;
  /** Noun phrases (content words) the clause says are gone, removed, decommissioned… */
  readonly retired: readonly (readonly string[])[];
  /** Tools the clause rejects or says were replaced. */
  readonly old: ReadonlySet<string>;
  /** Any term right after a verb of rejection ("dropped Tailwind", "replaced the cron job"). */
  readonly rejected: ReadonlySet<string>;
  /** Code spans of the clause, lower-cased (`git clean -fdx`, `main`). */
  readonly code: readonly string[];
  /** The clause refuses what it names: a negation, or a word of refusal ("dangerous", "forbidden"). */
  readonly refuses: boolean;
  /** Tools the clause uses ("with Jest", "runs vitest", "Jest for unit tests"), not merely mentions. */
  readonly used: ReadonlySet<string>;
}

export interface SentenceView extends ClauseView {
  /** Negation is judged per clause: "use pnpm; never run npm install" negates only npm. */
  readonly clauses: readonly ClauseView[];
}

/** Clauses: a negation keeps its scope over a comma list ("do not rephrase, weaken or stall"). */
export const CLAUSE_SPLIT =
  /;|:\s|\s[-–—]\s|—|\s+but\s+|\s*[()（）]\s*|[，；：、]|,\s*(?=(?:never|not|don't|do not|no)\b)/i;
/** Words that set polarity or force, not subject. */
const MARKERS = new Set([
  'always',
  'must',
  'should',
  'please',
  'every',
  'all',
  'enable',
  'enabled',
  'allow',
  'allowed',
]);

/**
 * Where the tokens of a whole text may differ from its clauses' tokens put end to end: a character NOT_PROSE may
 * match (a span may cross a split), "but" (a token the split removes), or fullwidth punctuation (NFKC makes "，"
 * a comma, which joins the digits of "1，000" into one token).
 */
const JOINS_TOKENS = /[`/"“，；：、（）]|\s+but\s+/i;

export function viewSentence(text: string): SentenceView {
  const pieces = text.split(CLAUSE_SPLIT);
  const parts = pieces.map((c) => c.trim()).filter((c) => c.length > 2);
  if (parts.length > 1 && !JOINS_TOKENS.test(text) && pieces.every((p) => p.trim().length > 2 || p.trim() === ''))
    return new JoinedSentence(text, parts.map(viewClause));
  const whole = viewClause(text);
  return { ...whole, clauses: parts.length > 1 ? parts.map(viewClause) : [whole] };
}

/**
 * The view of a text of several clauses whose tokens are its clauses' tokens end to end (each piece the split
 * drops is blank, and JOINS_TOKENS finds nothing): its tokens, content words, tools and negation are the clauses'
 * joined, as `viewClause` of the whole text would find them (every one is read token by token, or by a regex that
 * no split crosses). Its retired phrases are read from the text; what the engine reads of the whole only when it
 * is a clause (values, cues, rejected terms…) is the whole text's `viewClause`, made on first read.
 * test/conflict-view-joined.test.ts compares every field with `viewClause` of the text.
 */
class JoinedSentence implements SentenceView {
  readonly tokens: readonly string[];
  readonly content: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
  readonly negated: boolean;
  readonly retired: readonly (readonly string[])[];
  #whole: ClauseView | undefined;

  constructor(
    readonly text: string,
    readonly clauses: readonly ClauseView[],
  ) {
    const toks: string[] = [];
    const content = new Set<string>();
    const tools = new Set<string>();
    let negated = false;
    for (const c of clauses) {
      for (const t of c.tokens) toks.push(t);
      for (const w of c.content) content.add(w);
      for (const t of c.tools) tools.add(t);
      if (c.negated) negated = true;
    }
    this.tokens = toks;
    this.content = content;
    this.tools = tools;
    this.negated = negated;
    this.retired = retiredPhrases(text);
  }

  get #view(): ClauseView {
    return (this.#whole ??= viewClause(this.text));
  }
  get values(): ReadonlyMap<string, string> {
    return this.#view.values;
  }
  get numbers(): ReadonlySet<string> {
    return this.#view.numbers;
  }
  get units(): ReadonlyMap<string, string> {
    return this.#view.units;
  }
  get replaces(): boolean {
    return this.#view.replaces;
  }
  get old(): ReadonlySet<string> {
    return this.#view.old;
  }
  get rejected(): ReadonlySet<string> {
    return this.#view.rejected;
  }
  get code(): readonly string[] {
    return this.#view.code;
  }
  get refuses(): boolean {
    return this.#view.refuses;
  }
  get used(): ReadonlySet<string> {
    return this.#view.used;
  }
}

/** Code spans, URLs and file paths name things; they are not the statement. */
const NOT_PROSE = /`[^`]*`|[a-z][a-z0-9+.-]*:\/\/\S+|(?:~|\.{0,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+|"[^"]{3,}"|“[^”]{3,}”/gi;
/**
 * A character every match of NOT_PROSE holds (a backquote, the slash of a URL or path, a quote): a clause without
 * one is all prose, and the regex (slow on long words: its path branch starts at every letter) is not run on it.
 */
const MAY_HOLD_NOT_PROSE = /[`/"“]/;

/**
 * An ASCII digit, or a character whose NFKC form holds one (superscripts, fractions, circled, fullwidth and
 * mathematical digits, squared units…): a text without any has no NUMBER token. The list is Unicode's (Node's ICU);
 * test/conflict-view-joined.test.ts checks it against NFKC on every code point.
 */
export const MAY_HOLD_NUMBER =
  /[0-9\u00b2-\u00b3\u00b9\u00bc-\u00be\u2070\u2074-\u2079\u2080-\u2089\u2150-\u215f\u2189\u2460-\u249b\u24ea\u3251-\u325f\u32b1-\u32cb\u3358-\u3370\u3378-\u3379\u339f-\u33a6\u33a8\u33af\u33e0-\u33fe\uff10-\uff19\u{1ccf0}-\u{1ccf9}\u{1d7ce}-\u{1d7ff}\u{1f100}-\u{1f10a}\u{1fbf0}-\u{1fbf9}]/u;

/** One clause's view (exported for test/conflict-view-joined.test.ts, which checks `viewSentence` against it). */
export function viewClause(raw: string): ClauseView {
  const text = raw;
  const mayHold = MAY_HOLD_NOT_PROSE.test(raw);
  const toks = tokens(mayHold ? raw.replace(NOT_PROSE, (m) => (/^`[^`/]*`$/.test(m) ? m.slice(1, -1) : ' ')) : raw);
  const content = new Set<string>();
  const values = new Map<string, string>();
  const numbers = new Set<string>();
  const units = new Map<string, string>();
  const tools = new Set<string>();
  let negated = false;
  const lower = text.toLowerCase();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (NEGATIONS.has(t) || t.endsWith("n't")) {
      negated = true;
      continue;
    }
    if (FAMILIES_OF.has(t)) tools.add(t);
    if (NUMBER.test(t) && !DATE.test(t)) continue;
    if (!STOPWORDS.has(t) && !MARKERS.has(t) && t.length > 1) content.add(t);
  }
  if (/\bnever\b|\bdo not\b|\bdon't\b/.test(lower)) negated = true;
  // Values are keyed within comma-separated segments: in "82K files, 22 languages" 22 is languages. Each is a
  // NUMBER token, which holds an ASCII digit: a text without one, or a character NFKC makes one of, holds none.
  const prose = mayHold ? raw.replace(NOT_PROSE, ' ') : raw;
  for (const segment of MAY_HOLD_NUMBER.test(prose) ? prose.split(/,\s+/) : []) {
    const seg = tokens(segment);
    for (let i = 0; i < seg.length; i++) {
      const t = seg[i]!;
      if (!NUMBER.test(t) || DATE.test(t)) continue;
      const v = normalizeNumber(t);
      numbers.add(v);
      const after = seg[i + 1];
      if (after && !STOPWORDS.has(after) && !NUMBER.test(after)) units.set(v, after);
      for (const prev of previousWords(seg, i)) values.set(prev, v);
      const next = seg[i + 1];
      if (next && !STOPWORDS.has(next) && !NUMBER.test(next)) values.set(`${next}#after`, v);
    }
  }
  const phrases = retiredPhrases(text);
  const code = (raw.includes('`') ? [...raw.matchAll(/`([^`\n]{1,80})`/g)] : [])
    .map((m) => m[1]!.trim().toLowerCase())
    .filter((c) => c.length >= 3 || /^[a-z]/.test(c));
  const rejected = new Set<string>();
  for (let i = 0; i < toks.length; i++) {
    if (!REJECT_VERBS.has(toks[i]!)) continue;
    let k = i + 1;
    while (k < toks.length && k <= i + 2 && STOPWORDS.has(toks[k]!)) k++;
    const t = toks[k];
    // "forbid `git checkout`" refuses git checkout, not git: a word inside a longer code span is not the thing.
    if (t && code.some((c) => c !== t && c.split(/[\s/]+/).includes(t))) continue;
    if (t && !STOPWORDS.has(t) && t.length > 2 && !NUMBER.test(t)) rejected.add(t);
  }
  return {
    text,
    tokens: toks,
    content,
    negated,
    values,
    tools,
    replaces: REPLACED.test(lower),
    retired: phrases,
    old: oldTools(lower, tools),
    used: usedTools(lower, tools),
    rejected,
    numbers,
    units,
    code,
    refuses: negated || toks.some((t) => REFUSALS.has(t)),
  };
}

/** Noun phrases (content words) the text says are gone, removed, decommissioned… */
function retiredPhrases(text: string): string[][] {
  const phrases: string[][] = [];
  for (const m of RETIRED_WORD.test(text) ? text.matchAll(RETIRED) : []) {
    const before = text.slice(0, m.index).replace(/^[\s*_>#`-]*(?:the|that|this|our|its)?\s*/i, '');
    if (before.trim() !== '' && !/[,;:—]\s*(?:the\s+)?$/i.test(before)) continue;
    if (!/\s/.test(m[1]!.trim()) && !/[A-Z0-9_.-]/.test(m[1]!.replace(/^./, ''))) {
      if (!/^[A-Z]/.test(m[1]!.trim()) || /^(?:The|That|This|It)$/i.test(m[1]!.trim())) continue;
    }
    const words = tokens(m[1]!).filter(
      (t) => !STOPWORDS.has(t) && !NEGATIONS.has(t) && !MARKERS.has(t) && t.length > 2,
    );
    if (words.length) phrases.push(words);
  }
  return phrases;
}

/** The cue patterns for one tool name, compiled once per process (guard and consolidate view thousands of clauses). */
interface ToolCues {
  readonly used: RegExp;
  readonly rejectedAfter: RegExp;
  readonly rejectedBefore: RegExp;
}
const cueCache = new Map<string, ToolCues>();

function cuesFor(t: string): ToolCues {
  let c = cueCache.get(t);
  if (!c) {
    c = {
      used: new RegExp(
        `\\b(?:use|uses|using|used|run|runs|running|with|via|prefer|prefers|choose|chooses|pick|install|installs|adopt)\\s+(?:[\\w.-]+\\s+){0,2}${t}\\b|\\b${t}\\s+(?:for|is used)\\b|\\b(?:switch|move|migrate)\\s+to\\s+${t}\\b`,
      ),
      rejectedAfter: new RegExp(
        `\\b(?:replaced|(?:switched|moved|migrated|away) from|instead of|dropped|removed)\\s+(?:the\\s+)?${t}\\b|\\b(?:never|don't|do not|not|no longer|avoid|stop)\\s+(?:[\\w-]+\\s+){0,2}${t}\\b`,
      ),
      rejectedBefore: new RegExp(
        `\\b${t}\\b(?:\\s+[\\w-]+){0,2}?\\s+(?:was|is|were|are|has been)\\s+(?:now\\s+)?(?:removed|dropped|gone|deprecated|retired|not installed|replaced)`,
      ),
    };
    cueCache.set(t, c);
  }
  return c;
}

function usedTools(lower: string, tools: ReadonlySet<string>): ReadonlySet<string> {
  const used = new Set<string>();
  for (const t of tools) if (cuesFor(t).used.test(lower)) used.add(t);
  return used;
}

/** In a clause naming a tool it rejects ("never run npm", "replaced Jest with Vitest", "Prettier was dropped"): which ones. */
function oldTools(lower: string, tools: ReadonlySet<string>): ReadonlySet<string> {
  const old = new Set<string>();
  for (const t of tools) {
    const c = cuesFor(t);
    if (c.rejectedAfter.test(lower) || c.rejectedBefore.test(lower)) old.add(t);
  }
  return old;
}

/** The (up to two) content words before a number: "React to version 17" keys 17 by version and react. */
function previousWords(toks: readonly string[], i: number): string[] {
  const out: string[] = [];
  for (let k = i - 1; k >= 0 && k >= i - 4 && out.length < 2; k--) {
    const t = toks[k]!;
    if (NUMBER.test(t)) break;
    if (!STOPWORDS.has(t) && !NEGATIONS.has(t)) out.push(t);
  }
  return out;
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>, except: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const x of a) if (b.has(x) && !except.has(x)) out.push(x);
  return out;
}

export function sentenceConflict(a: SentenceView, b: SentenceView): Conflict | null {
  const tool = replacement(a, b);
  if (tool) return tool;
  for (const ca of a.clauses) {
    if (ca.values.size === 0) continue; // value() finds nothing without a value on this side
    for (const cb of b.clauses) {
      const v = value(ca, cb);
      if (v) return v;
    }
  }
  const retiredUse = retiredInOther(a, b) ?? retiredInOther(b, a);
  if (retiredUse) return retiredUse;
  for (const ca of a.clauses)
    for (const cb of b.clauses) {
      const c = polarity(ca, cb) ?? substitution(ca, cb) ?? antonymy(ca, cb);
      if (c) return c;
    }
  return null;
}

/** One sentence relies on what the other says is gone. */
function retiredInOther(user: SentenceView, sayer: SentenceView): Conflict | null {
  if (sayer.retired.length === 0 || user.negated) return null;
  for (const phrase of sayer.retired) {
    if (!phrase.every((t) => user.content.has(t))) continue;
    if (shared(user.content, sayer.content, new Set(phrase)).length >= 1)
      return { kind: 'retired', detail: `"${phrase.join(' ')}" is used in one and gone in the other` };
  }
  return null;
}

/**
 * The same frame with a different filler: "prefers answers in Korean" / "… in English", "store
 * uploads in eu-central-1" / "… in us-west-2", "commit messages in the imperative mood" / "… past
 * tense". The two clauses share a prefix holding the subject (two content words at least) and
 * differ in a short span (≤ 3 tokens, ≤ 4 characters of CJK) that neither contains, and that is
 * not a typo-level difference.
 */
function substitution(a: ClauseView, b: ClauseView): Conflict | null {
  if (a.negated !== b.negated) return null;
  const ta = a.tokens,
    tb = b.tokens;
  let p = 0;
  while (p < ta.length && p < tb.length && ta[p] === tb[p]) p++;
  // A prefix of fewer than 2 tokens fails below whatever the spans: checked before they are cut.
  if (p < 2) return null;
  let q = 0;
  while (q < ta.length - p && q < tb.length - p && ta[ta.length - 1 - q] === tb[tb.length - 1 - q]) q++;
  const fa = ta.slice(p, ta.length - q),
    fb = tb.slice(p, tb.length - q);
  if (fa.length === 0 || fb.length === 0) return null;
  // Cheap exits first (the same answers: a span over 4 tokens, or a prefix of fewer than 2 tokens, fails below either way).
  if (fa.length > 4 || fb.length > 4 || p < 2) return null;
  const cjk = fa.some(isCjk) || fb.some(isCjk);
  const maxLen = cjk ? 4 : 3;
  if (fa.length > maxLen || fb.length > maxLen) return null;
  const prefixContent = ta
    .slice(0, p)
    .filter((t) => !STOPWORDS.has(t) && !MARKERS.has(t) && (t.length > 1 || isCjk(t)));
  if (prefixContent.length < (cjk ? 3 : 2)) return null;
  if (!cjk && !STOPWORDS.has(ta[p - 1]!) && !FRAME_ENDS.has(ta[p - 1]!)) return null;
  if (fa.some((t) => fb.includes(t)) && (fa.every((t) => fb.includes(t)) || fb.every((t) => fa.includes(t))))
    return null;
  if (fa.length === fb.length && fa.every((t, i) => typoLevel(t, fb[i]!))) return null;
  const strip = (f: string[]): string[] => f.filter((t) => !STOPWORDS.has(t));
  const ca = strip(fa),
    cb = strip(fb);
  if (ca.length === 0 || cb.length === 0) return null;
  return { kind: 'substitution', detail: `${fa.join(' ')} vs ${fb.join(' ')}` };
}

/** Antonyms on the two sides of one subject: "enable X" / "X is disabled", "reliable" / "unreliable". */
function antonymy(a: ClauseView, b: ClauseView): Conflict | null {
  // The anchor does not depend on the antonym pair: checked once, before any lexicon look-up (counted first:
  // most clause pairs share fewer than 3 words).
  const common = sharedCount(a.content, b.content);
  if (common < 3) return null;
  const union = a.content.size + b.content.size - common;
  if (common + 1 < union * 0.6) return null;
  for (const x of a.content) {
    if (b.content.has(x)) continue;
    for (const y of b.content) {
      if (a.content.has(y) || !areAntonyms(x, y)) continue;
      return { kind: 'polarity', detail: `${x} vs ${y} on "${shared(a.content, b.content).slice(0, 4).join(' ')}"` };
    }
  }
  return null;
}

function polarity(a: ClauseView, b: ClauseView): Conflict | null {
  if (a.negated === b.negated) return null;
  // "never run npm install" and "run pnpm install" are two statements, not one negated.
  for (const ta of a.tools) for (const tb of b.tools) if (ta !== tb && sameFamily(ta, tb)) return null;
  if (a.content.size < 4 || b.content.size < 4) return null;
  const common = sharedCount(a.content, b.content);
  const union = a.content.size + b.content.size - common;
  if (union < 4 || common < 3 || common < union * 0.65) return null;
  const anchor = shared(a.content, b.content);
  return { kind: 'polarity', detail: `"${anchor.slice(0, 4).join(' ')}" affirmed in one, negated in the other` };
}

/** Different values for one key in two clauses that otherwise say the same thing. */
function value(a: ClauseView, b: ClauseView): Conflict | null {
  for (const [key, va] of a.values) {
    const vb = b.values.get(key);
    if (vb === undefined || vb === va) continue;
    // A record listing many numbers, or one holding the other's value too, is not a changed setting.
    if (a.numbers.size > 3 || b.numbers.size > 3 || a.numbers.has(vb) || b.numbers.has(va)) continue;
    // A count of things ("1813 tests" / "1948 tests") is a status that changes, not a setting.
    const ua = a.units.get(va),
      ub = b.units.get(vb);
    if (ua !== undefined && ua === ub && /[^s]s$/.test(ua)) continue;
    const word = key.replace(/#after$/, '');
    // One CJK character is not a key ("日", "檔"): text without spaces gives no word to key a value by.
    if (isCjk(word)) continue;
    const anchor = shared(a.content, b.content, new Set([word]));
    const union = new Set([...a.content, ...b.content]).size;
    if (anchor.length >= 2 && anchor.length + 1 >= union * 0.3)
      return { kind: 'value', detail: `${word}: ${va} vs ${vb}` };
  }
  return null;
}

function replacement(a: SentenceView, b: SentenceView): Conflict | null {
  // One side rejects a tool (in any of its clauses) that the other uses in a positive clause; then any
  // term dropped in one and used in the other; then a tool of one family each (a → b before b → a).
  const c = rejectedTool(a, b) ?? rejectedTool(b, a) ?? droppedTerm(a, b) ?? droppedTerm(b, a);
  if (c) return c;
  // Each side uses a different tool of one family, positively, for the same job.
  for (const ca of a.clauses) {
    if (ca.negated || ca.old.size || ca.used.size === 0) continue;
    for (const cb of b.clauses) {
      if (cb.negated || cb.old.size) continue;
      for (const ta of ca.used)
        for (const tb of cb.used) {
          if (
            ta === tb ||
            !sameFamily(ta, tb) ||
            ca.tools.has(tb) ||
            cb.tools.has(ta) ||
            ta.startsWith(tb) ||
            tb.startsWith(ta)
          )
            continue;
          if (shared(ca.content, cb.content, new Set([ta, tb])).length >= 1)
            return { kind: 'replacement', detail: `${ta} vs ${tb}` };
        }
    }
  }
  return null;
}

/** The rejecter rejects a tool (in any of its clauses) that the user uses in a positive clause. */
function rejectedTool(rejecter: SentenceView, user: SentenceView): Conflict | null {
  for (const rc of rejecter.clauses) {
    if (rc.old.size === 0) continue;
    for (const old of rc.old) {
      for (const uc of user.clauses) {
        if (uc.negated || !uc.used.has(old) || uc.old.has(old)) continue;
        if (shared(rejecter.content, user.content, new Set([old])).length >= 2)
          return { kind: 'replacement', detail: `${old} is rejected in one and used in the other` };
      }
    }
  }
  return null;
}

/** Any term: dropped by the rejecter, used (not merely mentioned) by the user, on a shared subject. */
function droppedTerm(rejecter: SentenceView, user: SentenceView): Conflict | null {
  for (const rc of rejecter.clauses) {
    if (rc.rejected.size === 0) continue;
    for (const t of rc.rejected) {
      if (FAMILIES_OF.has(t)) continue;
      for (const uc of user.clauses) {
        if (uc.negated || !uc.content.has(t) || uc.rejected.has(t) || !cuesFor(t).used.test(uc.text.toLowerCase()))
          continue;
        if (shared(rejecter.content, user.content, new Set([t])).length >= 1)
          return { kind: 'replacement', detail: `${t} is dropped in one and used in the other` };
      }
    }
  }
  return null;
}

/** Counters a run reports: how much pairwise work the conflict engine did (issue 14's counting test). */
export interface ConflictStats {
  candidatePairs: number;
  sentenceComparisons: number;
}
export const newConflictStats = (): ConflictStats => ({ candidatePairs: 0, sentenceComparisons: 0 });

/** A note's sentences and (built on first use, once per note, never per pair) its claims. */
export interface NoteClauses {
  readonly sentences: readonly { readonly s: Sentence }[];
  claims?: NoteClaims;
}

export function noteClauses(note: Pick<VaultFile, 'text' | 'bodyOffset' | 'codeRanges' | 'position'>): NoteClauses {
  return { sentences: sentences(note).map((s) => ({ s })) };
}

export interface FoundConflict {
  readonly conflict: Conflict;
  readonly a: Sentence;
  readonly b: Sentence;
}

/**
 * A note's clauses for comparing it in many pairs while many other notes' are held too (the contradictions stage): its
 * claims built at once, compact (`noteClaims`: frames keep their clauses' texts), and its sentences not kept but read
 * again when a conflict quotes one (a sentence object per sentence was the largest part of what a view held).
 */
export function compactNoteClauses(
  note: Pick<VaultFile, 'text' | 'bodyOffset' | 'codeRanges' | 'position'>,
): NoteClauses {
  const claims = noteClaims(claimSentences(sentences(note).map((s) => s.text)), true);
  return {
    get sentences() {
      return sentences(note).map((s) => ({ s }));
    },
    claims,
  };
}

/** The note's claims, built on first use and kept on the view (guard caches them: src/guard/claims-cache.ts). */
export function claimsOf(n: NoteClauses): NoteClaims {
  n.claims ??= noteClaims(claimSentences(n.sentences.map(({ s }) => s.text)));
  return n.claims;
}

/**
 * How two notes conflict (at most one finding, `limit` kept for callers): the claims of each note,
 * built once per note, compared on shared keys and things (src/similarity/claims.ts). The
 * sentence-level rules above (`sentenceConflict`) serve index lines, which are one sentence each.
 */
export function noteConflicts(
  a: NoteClauses,
  b: NoteClauses,
  limit = 3,
  stats?: ConflictStats,
  shared?: SharedFrames,
): FoundConflict[] {
  if (stats) stats.candidatePairs++;
  const c = limit > 0 ? claimConflict(claimsOf(a), claimsOf(b), shared) : null;
  return c ? [{ conflict: { kind: c.kind, detail: c.detail }, a: a.sentences[c.a]!.s, b: b.sentences[c.b]!.s }] : [];
}
