/**
 * A note's claims, computed once per note (never per pair) from its clauses: the values it gives
 * keys (`PORT=3000`, `--timeout=30`, `timeZone: Asia/Taipei`, `localhost:5173`, a cron expression,
 * "the digest is `0 9 * * *`") and the stance it takes on things (code spans, identifiers such as
 * `FINMIND_TOKEN` or `localStorage`, a command's name): used, or refused/retired. Two notes on one
 * subject contradict when they give one key disjoint values, or when one only uses a thing the other
 * only refuses. Code spans, identifiers, numbers and paths read the same in every language, so the
 * claims do too; the refusal markers cover the corpus's languages (en, pt, es, zh, ko, ja).
 */
import { stem, typoLevel } from './lexicon.js';
import { isCjk, STOPWORDS, tokens as tokenize } from './text.js';
import { count } from '../util/counters.js';
import { lazyArray } from '../util/lazy-array.js';

/** A clause as the claims read it: its raw text and its tokens (code spans' text kept, paths and URLs dropped). */
export interface ClaimClause {
  readonly text: string;
  readonly tokens: readonly string[];
}

/** Words and phrases by which a clause refuses or retires what it names. */
const REFUSE_EN =
  /\b(?:not|no|never|don't|dont|do not|doesn't|isn't|aren't|won't|can't|cannot|avoid|stop|forbid|forbids|forbidden|prohibited|banned|disabled?|deprecated|removed|dropped|deleted|gone|obsolete|no longer|anymore|instead of|unreliable|dangerous|unsafe|bypass)\b/i;
const REFUSE_ROMANCE =
  /(?:^|[^\p{L}])(?:não|nao|nunca|jamais|evitar|evite|proibido|proibida|removid[oa]s?|descontinuad[oa]s?|nunca|prohibido|evita)(?=$|[^\p{L}])/iu;
const REFUSE_CJK =
  /不要|不再|不能|不用|不可|别|勿|禁止|停用|失效|移除|删除|刪除|废弃|廢棄|沒有|没有|금지|않|말고|말 것|삭제|폐기|없다|없음|중단/;
/** Words that make a clause an exception or a case, not the rule ("only for…", "may", "still", "unless"). */
const SCOPED =
  /^\W*(?:when|whenever)\b|\b(?:only|unless|except|may|might|still|legacy|until|if|optionally)\b|(?:^|[^\p{L}])(?:só|somente|apenas|exceto|ainda|salvo)(?=$|[^\p{L}])|只|仅|僅|除非|除了|仍|단,/iu;

/** Portuguese/Spanish function words: in such a clause "no" is "in the", not a refusal. */
const ROMANCE = /(?:^|[^\p{L}])(?:da|do|de|em|para|com|os|as|um|uma|na|é|são|que|el|la|los|del|en)(?=$|[^\p{L}])/iu;
/**
 * The ASCII twins of the Unicode regexes below, for ASCII text (the clause's, known once per clause): there `\p{L}`
 * is `[A-Za-z]`, `\p{N}` is `[0-9]`, `iu` folds case as `i` does, and the words holding other characters cannot
 * match. Same answers on ASCII text (test/claims-cheaper.test.ts); cheaper to run and, what a guard call pays for,
 * to compile: V8 builds a case-folded Unicode class for each `\p{L}` under `iu` (NEG_AFTER ~2.6 ms cold, its twin
 * a fraction of it).
 */
const ROMANCE_ASCII = /(?:^|[^A-Za-z])(?:da|do|de|em|para|com|os|as|um|uma|na|que|el|la|los|del|en)(?=$|[^A-Za-z])/i;
/**
 * REFUSE_ROMANCE and SCOPED on ASCII text: there `\p{L}` is `[A-Za-z]`, `iu` folds case as `i` does, and the
 * words and signs holding other characters (não, só, 只, 단…) cannot match; REFUSE_CJK cannot match at all. The
 * Unicode regexes cost ~3× as much per clause.
 */
const REFUSE_ROMANCE_ASCII =
  /(?:^|[^A-Za-z])(?:nao|nunca|jamais|evitar|evite|proibido|proibida|removid[oa]s?|descontinuad[oa]s?|prohibido|evita)(?=$|[^A-Za-z])/i;
const SCOPED_ASCII =
  /^\W*(?:when|whenever)\b|\b(?:only|unless|except|may|might|still|legacy|until|if|optionally)\b|(?:^|[^A-Za-z])(?:somente|apenas|exceto|ainda|salvo)(?=$|[^A-Za-z])/i;
const NOT_ASCII = /[^\x00-\x7f]/;

export function refuses(text: string, ascii = !NOT_ASCII.test(text)): boolean {
  const en = REFUSE_EN.exec(text);
  const enRefuses =
    en !== null &&
    (en[0].toLowerCase() !== 'no' ||
      !(ascii ? ROMANCE_ASCII : ROMANCE).test(text) ||
      REFUSE_EN.test(text.replace(/\bno\b/gi, ' ')));
  if (enRefuses) return true;
  return ascii ? REFUSE_ROMANCE_ASCII.test(text) : REFUSE_ROMANCE.test(text) || REFUSE_CJK.test(text);
}
export const scoped = (text: string, ascii = !NOT_ASCII.test(text)): boolean =>
  ascii ? SCOPED_ASCII.test(text) : SCOPED.test(text);

/** Prohibitions that refuse what follows them closely ("never `x`", "don't push to `main`", "nunca localStorage", "removed the deprecated `X`", "no `rebase`"). */
const NEG_BEFORE =
  /\b(?:never|don't|dont|do not|does not|must not|mustn't|should not|shouldn't|avoid|stop|forbid|forbids|prohibit|prohibits|disallow|disallows|removed|dropped|deprecated|replaced|ditched|instead of|no longer)\b|\bno\s+(?:\S+\s+)?$|(?:^|[^\p{L}])(?:nunca|jamais|evitar|evite|nem|não use|não usar|não rodar)(?=$|[^\p{L}])/iu;
/** Predicates that refuse what precedes them closely ("`--no-verify` is forbidden", "MapLibre GL foi removido", "5050 não é mais usada"); "X is not Y" is not one. */
const NEG_AFTER =
  /^[\s*_)]*(?:\S+\s+)?(?:(?:is|are|was|were|has been|have been|foi|é|está|são|fica)\s+)?(?:now\s+|even\s+)?(?:forbidden|prohibited|banned|removed|dropped|deprecated|gone|obsolete|dangerous|unsafe|unreliable|disabled|retired|(?:not|isn't|aren't|wasn't)\s+(?:even\s+)?(?:used|allowed|supported|installed|recommended)|no longer (?:used|supported|needed)|removid[oa]s?|proibid[oa]s?|descontinuad[oa]s?|não (?:é|são) mais)(?=$|[^\p{L}])/iu;
const NEG_BEFORE_ASCII =
  /\b(?:never|don't|dont|do not|does not|must not|mustn't|should not|shouldn't|avoid|stop|forbid|forbids|prohibit|prohibits|disallow|disallows|removed|dropped|deprecated|replaced|ditched|instead of|no longer)\b|\bno\s+(?:\S+\s+)?$|(?:^|[^A-Za-z])(?:nunca|jamais|evitar|evite|nem)(?=$|[^A-Za-z])/i;
const NEG_AFTER_ASCII =
  /^[\s*_)]*(?:\S+\s+)?(?:(?:is|are|was|were|has been|have been|foi|fica)\s+)?(?:now\s+|even\s+)?(?:forbidden|prohibited|banned|removed|dropped|deprecated|gone|obsolete|dangerous|unsafe|unreliable|disabled|retired|(?:not|isn't|aren't|wasn't)\s+(?:even\s+)?(?:used|allowed|supported|installed|recommended)|no longer (?:used|supported|needed)|removid[oa]s?|proibid[oa]s?|descontinuad[oa]s?)(?=$|[^A-Za-z])/i;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_BREAK = /[，。；、,;:：()（）!?！？]/;

/**
 * Whether the clause refuses the thing at [start, end): in CJK text the whole clause decides (the
 * negator may follow the object: "쓰지 않는다"); elsewhere a negator in the five words before it or a
 * refusing predicate right after it ("NEVER alert() — `window.showToast()` is…" refuses alert, not showToast).
 */
/** Any word that could refuse something near it (a cheap test before looking around each word). */
const MAY_REFUSE =
  /n't|\b(?:not|no|never|avoid|stop|forbid|prohibit|disallow|removed|dropped|deprecated|replaced|ditched|instead|longer|forbidden|banned|gone|obsolete|dangerous|unsafe|unreliable|disabled|retired)|nunca|jamais|evit|não|nem\b|removid|proibid|descontinuad/i;

/** Whether the UTF-16 unit is white space as `/\s/` reads it (a code test, not a regex per character). */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
/**
 * `text.slice(0, end).split(/\s+/).slice(-n).join(' ')`, reading back from `end` only as far as the n-th run
 * of white space (the split of the whole prefix made every word of a long clause cost the clause's length).
 */
export function lastWords(text: string, end: number, n: number): string {
  return text
    .slice(lastWordsFrom(text, end, n), end)
    .split(/\s+/)
    .join(' ');
}

/** Where the text `lastWords(text, end, n)` reads starts: after the n-th run of white space back from `end`, or 0. */
function lastWordsFrom(text: string, end: number, n: number): number {
  let runs = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (!isSpace(text.charCodeAt(i))) continue;
    let j = i;
    while (j > 0 && isSpace(text.charCodeAt(j - 1))) j--;
    if (++runs === n) return i + 1;
    i = j;
  }
  return 0;
}

/**
 * Where in a clause NEG_BEFORE and NEG_AFTER could find their words (a superset: the words without the
 * boundaries, with the same flags): NEG_BEFORE reads the words before a thing, so it needs one starting before
 * it; NEG_AFTER the 48 characters after it, so it needs one starting there. Most words of a clause that may refuse
 * have neither, and skip both regexes.
 */
const BEFORE_WORDS =
  /never|don'?t|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|stop|forbid|prohibit|disallow|removed|dropped|deprecated|replaced|ditched|instead\s+of|no\s|nunca|jamais|evit|nem|não\s/giu;
const AFTER_WORDS =
  /forbidden|prohibited|banned|removed|dropped|deprecated|gone|obsolete|dangerous|unsafe|unreliable|disabled|retired|not\s|n't\s|no\s+longer|removid|proibid|descontinuad|não\s/giu;
const BEFORE_WORDS_ASCII =
  /never|don'?t|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|stop|forbid|prohibit|disallow|removed|dropped|deprecated|replaced|ditched|instead\s+of|no\s|nunca|jamais|evit|nem/gi;
const AFTER_WORDS_ASCII =
  /forbidden|prohibited|banned|removed|dropped|deprecated|gone|obsolete|dangerous|unsafe|unreliable|disabled|retired|not\s|n't\s|no\s+longer|removid|proibid|descontinuad/gi;
/** Every place a word of `re` starts in `text` (overlapping ones too). */
function starts(re: RegExp, text: string): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push(m.index);
    re.lastIndex = m.index + 1;
  }
  return out;
}
/** The places NEG_BEFORE / NEG_AFTER may find a word in a (non-CJK) clause. */
interface RefusalWords {
  readonly before: number;
  /** Every place a word of NEG_BEFORE may start (ascending; `before` is the first, or Infinity). */
  readonly befores: readonly number[];
  readonly after: readonly number[];
  /** The clause is ASCII: the ASCII twins of NEG_BEFORE, NEG_AFTER and ROMANCE read it. */
  readonly ascii: boolean;
}
export function refusalWords(text: string, ascii = !NOT_ASCII.test(text)): RefusalWords {
  const befores = starts(ascii ? BEFORE_WORDS_ASCII : BEFORE_WORDS, text);
  return {
    before: befores[0] ?? Infinity,
    befores,
    after: starts(ascii ? AFTER_WORDS_ASCII : AFTER_WORDS, text),
    ascii,
  };
}

/** Whether one of the ascending places is in [from, to). */
function startsWithin(places: readonly number[], from: number, to: number): boolean {
  for (const p of places) {
    if (p >= to) return false;
    if (p >= from) return true;
  }
  return false;
}

export function refusedNear(
  text: string,
  start: number,
  end: number,
  cjk = HAS_CJK.test(text),
  near: RefusalWords = refusalWords(text),
): boolean {
  if (cjk) {
    // CJK: a refusal marker within a dozen characters on either side, not across punctuation ("**不要**自动 `open`", "17:10 補跑已停用").
    const pre =
      text
        .slice(Math.max(0, start - 12), start)
        .split(CJK_BREAK)
        .pop() ?? '';
    const post = text.slice(end, end + 12).split(CJK_BREAK)[0] ?? '';
    return REFUSE_CJK.test(pre) || REFUSE_CJK.test(post) || REFUSE_ROMANCE.test(pre);
  }
  const negBefore = near.ascii ? NEG_BEFORE_ASCII : NEG_BEFORE;
  // NEG_BEFORE reads the six words before the thing (`lastWords`): it can match only where a word of it starts there.
  if (near.before < start && startsWithin(near.befores, lastWordsFrom(text, start, 6), start)) {
    const before = lastWords(text, start, 6);
    const pre = before.split(/[,.!?;:]\W*\s|\*\*/).pop() ?? '';
    if (
      negBefore.test(pre) &&
      !(
        /\bno\b/i.test(pre) &&
        (near.ascii ? ROMANCE_ASCII : ROMANCE).test(text) &&
        !negBefore.test(pre.replace(/\bno\b/gi, ' '))
      )
    )
      return true;
  }
  return (
    near.after.some((p) => p >= end && p < end + 48) &&
    (near.ascii ? NEG_AFTER_ASCII : NEG_AFTER).test(text.slice(end, end + 48))
  );
}

/** The stance a note takes on one thing: sentences where it is used, and where it is refused. */
export interface Stance {
  readonly pos: number;
  readonly neg: number;
}
export interface ValueClaim {
  readonly values: Set<string>;
  readonly at: number;
}

export interface NoteClaims {
  /** Thing (code span or identifier, lower-cased) → first sentence using it / refusing it (-1: none). */
  readonly things: Map<string, Stance>;
  /** Every token of every unscoped clause → stance (a thing named in prose: "nunca localStorage"). */
  readonly words: Map<string, Stance>;
  /** Key → the values the note gives it in clauses that do not refuse them. */
  readonly values: Map<string, ValueClaim>;
  /** Values the note refuses or retires ("5050 não é mais usada", "旧的 100.85.28.37 已失效"). */
  readonly refusedValues: Set<string>;
  /** Frames: a clause with one word left out (its filler), keyed by the rest ("use _ for all unit tests" → jest). */
  readonly frames: FrameSet;
  /** Rules: a clause opening with always/never/don't… keyed by the first four content words after it ("force push release branch" → do / don't). */
  readonly rules: Map<string, { readonly refuse: boolean; readonly at: number }>;
  /** Every number the note writes, normalized. */
  readonly numbers: Set<string>;
  /** Content stems of each sentence, sorted, each once (the subject two claims must share besides their key). */
  readonly subject: readonly (readonly string[])[];
}

const CODE = /`([^`\n]{1,120})`/g;
/** Identifiers in prose: camelCase, SCREAMING_SNAKE (PascalCase is mostly brand names in prose: GitHub, TanStack). */
const IDENT = /(?<![\w$-])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w-])/g;
/**
 * Every match of IDENT holds one of these: a small letter then a capital (`[a-z]+[A-Z]`), or a capital or digit, `_`,
 * then a capital, digit or `_` (`[A-Z][A-Z0-9]*_[A-Z0-9_]+`). Prose sentences open with a capital and hold neither.
 */
const MAY_IDENT = /[a-z][A-Z]|[A-Z0-9]_[A-Z0-9_]/;
const NO_MATCHES: readonly RegExpExecArray[] = [];
/** `text.matchAll(IDENT)`, the regex run only on text that may hold an identifier (test/claims-cheaper.test.ts). */
export const identifiers = (text: string): Iterable<RegExpExecArray> =>
  MAY_IDENT.test(text) ? text.matchAll(IDENT) : NO_MATCHES;
/** `KEY=value`, `--flag=value` (not `==`, not inside a URL query). */
const ASSIGN = /(?<![\w./?&=-])(--?[a-z][\w-]*|[A-Za-z_][\w.]*)\s?=(?!=)\s?("[^"\n]*"|'[^'\n]*'|[^\s`,;)\]}"']+)/g;
/** `key: value` inside a code span (YAML, JSON, headers). */
const COLON_IN_CODE = /^"?([A-Za-z_][\w.-]*)"?\s*:\s+(\S.*)$/;
/** host:port */
const HOST_PORT = /\b(localhost|127\.0\.0\.1|0\.0\.0\.0)?:(\d{2,5})(?![\d.:])/g;
/** Five cron fields. */
const CRON = /^((?:[\d*][\d*,/-]*\s+){4}[\d*][\d*,/-]*)(?:\s|$)/;
/** "<key> is `value`" ("the digest is `0 9 * * *`"). */
const IS_CODE = /([\p{L}_][\p{L}\p{N}_.-]*)\s+(?:is|are)\s+(?:therefore\s+|now\s+|always\s+)?`([^`\n]{1,80})`/gu;

const norm = (v: string): string =>
  v
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/^v(?=\d)/, '')
    .replace(/,(?=\d{3})/g, '')
    .replace(/(?:\.0+)+$/, '')
    .toLowerCase();

/** A thing's name: a code span trimmed, a trailing `=…` / `…` dropped. */
function thingOf(code: string): string {
  return code
    .trim()
    .toLowerCase()
    .replace(/\s*=\s*(?:\.\.\.|…)?$/, '')
    .replace(/(?:\.\.\.|…)$/, '')
    .trim();
}

/**
 * The stances of one note's keys first met in its current sentence: one object each way, shared by every such key
 * (stances are never changed in place: a key whose stance changes gets a new one). A note's words and things were
 * an object each (~2 M at hard 10k), kept for the whole contradictions stage.
 */
class Stances {
  private at = -1;
  private posStance: Stance = { pos: -1, neg: -1 };
  private negStance: Stance = { pos: -1, neg: -1 };
  of(i: number, neg: boolean): Stance {
    if (i !== this.at) {
      this.at = i;
      this.posStance = { pos: i, neg: -1 };
      this.negStance = { pos: -1, neg: i };
    }
    return neg ? this.negStance : this.posStance;
  }
}

function add(m: Map<string, Stance>, key: string, i: number, neg: boolean, stances: Stances): void {
  const e = m.get(key);
  if (e === undefined) m.set(key, stances.of(i, neg));
  else if (neg) {
    if (e.neg < 0) m.set(key, { pos: e.pos, neg: i });
  } else if (e.pos < 0) m.set(key, { pos: i, neg: e.neg });
}

function addValue(
  values: Map<string, ValueClaim>,
  refused: Set<string>,
  key: string,
  v: string,
  i: number,
  neg: boolean,
): void {
  const value = norm(v);
  if (value === '' || value.length > 60) return;
  if (neg) {
    refused.add(value);
    return;
  }
  const e = values.get(key) ?? { values: new Set<string>(), at: i };
  e.values.add(value);
  values.set(key, e);
}

/** Content stems of a sentence; CJK text gives its character bigrams. */
/**
 * One string per distinct stem of a note (a sentence's subject is kept for every sentence of every compared
 * note: the note's stems once, not a copy per sentence). Per note: a vault-wide map grows past the cache.
 */
function interner(): (t: string) => string {
  const seen = new Map<string, string>();
  return (t) => {
    const hit = seen.get(t);
    if (hit !== undefined) return hit;
    seen.set(t, t);
    return t;
  };
}

function subjectOf(tokens: readonly string[], intern: (t: string) => string): readonly string[] {
  const out = new Set<string>();
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (isCjk(t)) {
      const n = tokens[k + 1];
      if (n !== undefined && isCjk(n)) out.add(t + n);
      continue;
    }
    if (t.length > 2 && !STOPWORDS.has(t) && !/^\d/.test(t)) out.add(stem(t));
    // `dashboard.html`, `concept_charts.py`: the parts name the subject too.
    if (/[._-]/.test(t))
      for (const part of t.split(/[._-]+/))
        if (part.length > 3 && !STOPWORDS.has(part) && !/^\d/.test(part)) out.add(stem(part));
  }
  return Array.from(out, intern).sort();
}

/**
 * Clauses for claims: a negation keeps its scope over parentheses and a colon ("NEVER use CLI tools
 * (cidx init) or SSH"), not across a dash, a semicolon, "but" or a CJK comma.
 */
const CLAIM_SPLIT =
  /;|；|,(?=\s*[\p{Script=Han}\p{Script=Hangul}])|\s[-–—]\s|—|\s+but\s+|，|,\s*(?=(?:never|not|don't|do not|no|but|não|nunca|nem|mas)(?:$|[^\p{L}]))/iu;
/**
 * Every match of CLAIM_SPLIT holds one of these (`but` folds to no other letters under `iu`): a sentence without any
 * is one clause, and the Unicode regex is not run over it.
 */
const MAY_SPLIT = /[;；,，–—-]|but/i;
/** CLAIM_SPLIT on ASCII text (the CJK signs and dashes cannot match there; `\p{L}` is `[A-Za-z]`). */
const CLAIM_SPLIT_ASCII = /;|\s-\s|\s+but\s+|,\s*(?=(?:never|not|don't|do not|no|but|nunca|nem|mas)(?:$|[^A-Za-z]))/i;
/** Code spans keep their text; paths and URLs are names, not words of the statement. */
const NOT_WORDS = /[a-z][a-z0-9+.-]*:\/\/\S+|(?:~|\.{0,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+/gi;
/** Values that name one thing wherever they appear: a time of day, an IP address, a dotted version, a port-sized number. */
const DISTINCT =
  /(?<![\w.:])(?:\d{1,2}:\d{2}(?!:\d)|\d{1,3}(?:\.\d{1,3}){3}|\d+\.\d+\.\d+|[1-9]\d{3,4})(?![\w.:-]|\.\d)/g;
/** A number with its unit ("25 MB", "30 s", "80%", "4시"). */
const NUM_UNIT = /(?<![\w.,:/$€£-])(\d+(?:[.,]\d+)?)\s?(%|[a-z]{2,3}\b|[sh]\b)/gi;

/** A clause's or sentence's words (paths and URLs dropped). */
const claimWords = (t: string): string[] => tokenize(t.includes('/') ? t.replace(NOT_WORDS, ' ') : t);

/** Text whose tokens are computed on first read: most clauses' tokens (frames) and sentences' (subjects) never are. */
class LazyTokens {
  #tokens: readonly string[] | undefined;
  constructor(readonly text: string) {}
  get tokens(): readonly string[] {
    return (this.#tokens ??= claimWords(this.text));
  }
}
class ClaimSentence extends LazyTokens {
  constructor(
    text: string,
    readonly clauses: readonly ClaimClause[],
  ) {
    super(text);
  }
}

/** A sentence as the claims read it: its clauses and its tokens (`text` given: the tokens are its words, read on demand). */
export interface ClaimSentenceInput {
  readonly text?: string;
  readonly clauses: readonly ClaimClause[];
  readonly tokens: readonly string[];
}

/** A sentence's clause texts, before trimming (`ascii`: the sentence is ASCII, read by CLAIM_SPLIT's ASCII twin). */
export const splitClauses = (text: string, ascii = !NOT_ASCII.test(text)): string[] =>
  // A text no separator may be in is one clause: `[text]`, what splitting it by a regex that never matches gives.
  !MAY_SPLIT.test(text) ? [text] : text.split(ascii ? CLAIM_SPLIT_ASCII : CLAIM_SPLIT);

export function claimSentences(texts: readonly string[]): ClaimSentenceInput[] {
  return texts.map(
    (text) =>
      new ClaimSentence(
        text,
        splitClauses(text)
          .map((c) => c.trim())
          .filter((c) => c.length > 1)
          .map((c) => new LazyTokens(c)),
      ),
  );
}

const YEAR = /^(?:19|20)\d{2}$/;
/** A rule's opening: "Always …", "Never …", "Don't …", "Do not …", "Must …" / "Must not …". */
const RULE = /^\W*(?:always|never|don't|dont|do not|must not|must|should not|should|nunca|sempre|não)\b\s*/i;
const MARKER_WORDS = new Set(['always', 'never', 'even', 'also', 'still', 'just', 'really']);
const WORD = /[\p{L}\p{N}_][\p{L}\p{N}_.'-]*/gu;
const NUMBERS = /(?<![\w.])\d+(?:[.,]\d+)*/g;
/** [A-Za-z0-9_] */
const wordStart = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
/**
 * `text.matchAll(WORD_ASCII)` read by character codes, without a match object per word: each word lower-cased, its
 * trailing `.`, `'` and `-` dropped, handed to `f` with the match's [start, end) when two characters or more are
 * left. WORD_ASCII (`[A-Za-z0-9_][A-Za-z0-9_.'-]*`, WORD on ASCII text: there \p{L} and \p{N} are letters and digits) is
 * one character class then another, repeated greedily: the scan finds the same words (test/claims-cheaper.test.ts).
 */
export function forEachAsciiWord(text: string, f: (word: string, start: number, end: number) => void): void {
  const len = text.length;
  for (let p = 0; p < len;) {
    if (!wordStart(text.charCodeAt(p))) {
      p++;
      continue;
    }
    let e = p + 1;
    for (; e < len; e++) {
      const d = text.charCodeAt(e);
      if (!wordStart(d) && d !== 46 && d !== 39 && d !== 45) break;
    }
    let kept = e;
    for (let d = text.charCodeAt(kept - 1); d === 46 || d === 39 || d === 45; d = text.charCodeAt(kept - 1)) kept--;
    if (kept - p > 1) f(text.slice(p, kept).toLowerCase(), p, e);
    p = e;
  }
}

/**
 * The sentences' subjects: a sentence's subject is read only when two claims meet, so it is computed then, from its
 * text (kept by the note's sentences anyway) or its tokens. Made here, not inside `noteClaims`: a closure there would
 * hold noteClaims' whole scope (its frame builder's working arrays and tables) for as long as the claims live.
 */
function lazySubjects(sentences: readonly ClaimSentenceInput[]): readonly (readonly string[])[] {
  const intern = interner();
  const sources = sentences.map((s) => s.text ?? s.tokens);
  return lazyArray(sources.length, (i) => {
    const src = sources[i]!;
    return subjectOf(typeof src === 'string' ? claimWords(src) : src, intern);
  });
}

/** Port numbers: "port 8000", "porta 5050", "端口 9527", "8765 端口", "포트 3000". */
const PORT =
  /(?:\b(?:port|porta|puerto)\s*[:=]?\s*|端口\s*[:：]?\s*|포트\s*)(\d{2,5})\b|\b(\d{2,5})\s*(?:端口|포트)/giu;
/**
 * `compact`: the frames' clauses are kept as their texts, their tokens read again (`claimWords`) where a frame is
 * looked at (a hash two notes share, a conflict quoted): for the contradictions stage, which holds many notes' claims
 * at once and looks at few of their frames (a clause's tokens were ~40 bytes per token, a third of what a note's
 * claims held). Only for sentences whose clauses' tokens are their texts' words (`claimSentences`). The guard stores
 * its claims (`v8.serialize` cannot write the lazy array): not compact.
 */
export function noteClaims(sentences: readonly ClaimSentenceInput[], compact = false): NoteClaims {
  const things = new Map<string, Stance>();
  const words = new Map<string, Stance>();
  const values = new Map<string, ValueClaim>();
  const refusedValues = new Set<string>();
  const subject = lazySubjects(sentences);
  const numbers = new Set<string>();
  const frames = new FrameBuilder(sentences.length);
  const rules = new Map<string, { refuse: boolean; at: number }>();
  const stances = new Stances();
  sentences.forEach((s, i) => {
    for (const c of s.clauses) {
      // The clause without its code spans, once (a clause without a backtick has none).
      const hasCode = c.text.includes('`');
      const noCode = hasCode ? c.text.replace(CODE, ' ') : c.text;
      // The clause's code-free text is ASCII when the clause is (most are): the cheaper regexes then.
      const textAscii = !NOT_ASCII.test(c.text);
      const ascii = textAscii || !NOT_ASCII.test(noCode);
      const neg = refuses(noCode, ascii);
      const isScoped = scoped(noCode, ascii);
      const codes = hasCode ? Array.from(c.text.matchAll(CODE), (m) => m[1]!) : [];
      const hasDigit = /\d/.test(c.text);
      // Frames: not from clauses holding paths; a file name or an identifier is never a filler (templates: "The file `x.md` holds…").
      if (!isScoped && !neg && !c.text.includes('/')) frames.addClause(c.tokens, i, c.text);
      if (hasDigit) for (const m of c.text.matchAll(NUMBERS)) numbers.add(norm(m[0]));
      const rule = RULE.exec(c.text);
      if (rule && !isScoped) {
        const key = tokenize(c.text.slice(rule[0].length))
          .filter((t) => !STOPWORDS.has(t) && !MARKER_WORDS.has(t))
          .slice(0, 4);
        if (key.length === 4)
          rules.set(key.join(' '), { refuse: !/^\W*(?:always|must|should|do)\b/i.test(rule[0]), at: i });
      }
      if (!isScoped) {
        // Most clauses hold no refusal at all: their words and things are used, without looking around each one.
        const mayRefuse = neg || MAY_REFUSE.test(c.text);
        // Whether the clause holds CJK text is asked once per clause, not once per word.
        const cjk = mayRefuse && !textAscii && HAS_CJK.test(c.text);
        const near = mayRefuse && !cjk ? refusalWords(c.text, textAscii) : null;
        const refusedAt =
          mayRefuse && (cjk || near!.before < Infinity || near!.after.length > 0)
            ? (text: string, start: number, end: number): boolean =>
                refusedNear(text, start, end, cjk, near ?? undefined)
            : (): boolean => false;
        const blanked = hasCode ? c.text.replace(CODE, (x) => ' '.repeat(x.length)) : c.text;
        if (textAscii || !NOT_ASCII.test(blanked))
          forEachAsciiWord(blanked, (t, start, end) => {
            if (!STOPWORDS.has(t)) add(words, t, i, refusedAt(c.text, start, end), stances);
          });
        else
          for (const m of blanked.matchAll(WORD)) {
            const w = m[0].toLowerCase();
            const end = w.charCodeAt(w.length - 1);
            // 46 `.`, 39 `'`, 45 `-`: trailing ones dropped.
            const t = end === 46 || end === 39 || end === 45 ? w.replace(/[.'-]+$/, '') : w;
            if (t.length > 1 && !STOPWORDS.has(t))
              add(words, t, i, refusedAt(c.text, m.index, m.index + m[0].length), stances);
          }
        if (hasCode)
          for (const m of c.text.matchAll(CODE)) {
            const t = thingOf(m[1]!);
            if (t.length >= 2) add(things, t, i, refusedAt(c.text, m.index, m.index + m[0].length), stances);
          }
        for (const m of identifiers(blanked))
          add(things, m[0].toLowerCase(), i, refusedAt(c.text, m.index, m.index + m[0].length), stances);
        if (hasDigit)
          for (const m of c.text.matchAll(DISTINCT))
            if (!YEAR.test(m[0])) add(things, m[0], i, refusedAt(c.text, m.index, m.index + m[0].length), stances);
      }
      // Values: refused ones are remembered (the old value named as gone), scoped ones are not claims.
      if (isScoped && !neg) continue;
      // A setting's name looks like one: a flag, SCREAMING_SNAKE, snake_case, camelCase, dotted (not "gap = 26").
      if (c.text.includes('='))
        for (const m of c.text.matchAll(ASSIGN))
          if (/^-|[_.A-Z]/.test(m[1]!) && m[1]!.length >= 4)
            addValue(values, refusedValues, `=${m[1]!.toLowerCase()}`, m[2]!, i, neg);
      if (hasDigit && c.text.includes(':'))
        for (const m of c.text.matchAll(HOST_PORT))
          if (m[1] || /\b(?:https?:\/\/|port\b)/i.test(c.text))
            addValue(values, refusedValues, `port@${m[1] ?? 'host'}`, m[2]!, i, neg);
      for (const code of codes) {
        const cron = CRON.exec(code.trim());
        if (cron) addValue(values, refusedValues, 'cron', cron[1]!.replace(/\s+/g, ' '), i, neg);
        const kv = COLON_IN_CODE.exec(code.trim());
        // CSS properties (hyphenated: `font-size`) recur in every context; settings keep their keys.
        if (kv && !/^https?$/i.test(kv[1]!) && !kv[1]!.includes('-'))
          addValue(values, refusedValues, `:${kv[1]!.toLowerCase()}`, kv[2]!, i, neg);
      }
      const prose = hasDigit && noCode.includes('/') ? noCode.replace(NOT_WORDS, ' ') : noCode;
      // A clause listing several numbers is a record (a measurement, a change "1.5% → 2.0%"), not a setting.
      const recordLike = hasDigit && ((prose.match(NUMBERS) ?? []).length > 2 || /→|->/.test(prose));
      if (hasDigit && !recordLike)
        for (const m of prose.matchAll(NUM_UNIT)) {
          const unit = m[2]!.toLowerCase();
          if (STOPWORDS.has(unit) || /^(?:x|th|st|nd|rd|am|pm)$/.test(unit)) continue;
          // The key: the content words just before the number (two at most), each with the unit.
          const before = tokenize(prose.slice(0, m.index))
            .filter((t) => !STOPWORDS.has(t) && !/^\d/.test(t) && !isCjk(t) && t.length >= 4)
            .slice(-2);
          for (const w of before) addValue(values, refusedValues, `${stem(w)}#${unit}`, m[1]!, i, neg);
        }
      if (hasDigit && /port|端口|포트/i.test(c.text))
        for (const m of c.text.matchAll(PORT)) addValue(values, refusedValues, 'port', (m[1] ?? m[2])!, i, neg);
      if (codes.length > 0 && /\b(?:is|are)\b/.test(c.text))
        for (const m of c.text.matchAll(IS_CODE)) {
          const key = m[1]!.toLowerCase();
          if (STOPWORDS.has(key) || key.length < 3) continue;
          addValue(values, refusedValues, `is:${stem(key)}`, m[2]!, i, neg);
        }
    }
  });
  return { things, words, values, refusedValues, subject, numbers, frames: frames.done(compact), rules };
}

export interface ClaimConflict {
  readonly kind: 'value' | 'polarity';
  readonly detail: string;
  readonly a: number;
  readonly b: number;
}

/**
 * The two sentences holding the claims share a content word besides the key: one subject. A number
 * keyed by the word before it and its unit ("upload … 25 MB" / "uploads … 10 MB") has its subject in the key.
 */
export const sharesSubject = (a: NoteClaims, i: number, b: NoteClaims, j: number, key: string, need = 1): boolean => {
  if (key.includes('#')) return true;
  const except = new Set([key, stem(key), ...tokenize(key), ...tokenize(key).map(stem)]);
  const sa = a.subject[i]!,
    sb = b.subject[j]!;
  // Both sorted, each stem once: the shared stems in one merge.
  let n = 0;
  for (let x = 0, y = 0; x < sa.length && y < sb.length;) {
    const s = sa[x]!,
      t = sb[y]!;
    if (s < t) x++;
    else if (s > t) y++;
    else {
      if (!except.has(s) && ++n >= need) return true;
      x++;
      y++;
    }
  }
  return false;
};

/** Two things naming one: equal, or the shorter one's words in order among the longer one's (`--no-verify` in `git push --no-verify`). */
export function sameThing(x: string, y: string): boolean {
  if (x === y) return true;
  const [s, l] = x.length < y.length ? [x, y] : [y, x];
  const sw = s.split(/\s+/),
    lw = l.split(/\s+/);
  // Inside a longer span only as a command (two words at least) or a flag: `nftid` is not `nftid = 0x42`.
  if (s.length < 4 || (sw.length < 2 && !s.startsWith('-'))) return false;
  let k = 0;
  for (const w of lw) if (k < sw.length && w === sw[k]) k++;
  return k === sw.length;
}

const spanIndex = new WeakMap<NoteClaims, Map<string, string[]>>();
/** The note's multi-word things holding a word (built once per note). */
function spansWith(n: NoteClaims, word: string): readonly string[] {
  let m = spanIndex.get(n);
  if (!m) {
    m = new Map();
    for (const t of n.things.keys()) {
      if (!/\s/.test(t)) continue;
      for (const w of new Set(t.split(/\s+/))) {
        const l = m.get(w);
        if (l) l.push(t);
        else m.set(w, [t]);
      }
    }
    spanIndex.set(n, m);
  }
  return m.get(word) ?? [];
}

/**
 * A note's things that can take part in a polarity conflict (only used, or only refused; a thing both used and
 * refused never does), in the order of `things`, with what the comparison asks of each: read once per note.
 */
export interface ThingEntry {
  readonly thing: string;
  readonly stance: Stance;
  /** No white space: looked up among the other note's words too, and needs a shared word of subject. */
  readonly oneWord: boolean;
  /** A command or a flag: may be found inside a longer span of the other note, by its first word. */
  readonly first: string | null;
}
/**
 * A note's things as a pair reads them: a thing only used conflicts only with a note refusing it (as a thing, a
 * word of its prose, or a longer span holding it), and notes refuse few things; so a pair tries the things one note
 * only refuses, and the things it only uses that a key the other note refuses under names (`byKey`), in list order.
 */
export interface ThingIndex {
  readonly list: readonly ThingEntry[];
  /** Places in `list` of the things only refused. */
  readonly refused: readonly number[];
  /** A thing only used, under its name and (a command or flag) its first word → its places in `list`. */
  readonly byKey: ReadonlyMap<string, readonly number[]>;
  /** What the note refuses under: its things and prose words only refused, and the words of its multi-word things only refused. */
  readonly refusedKeys: readonly string[];
}
const thingIndexes = new WeakMap<NoteClaims, ThingIndex>();
/**
 * A cache that stores a note's claims may store their thing index too (guard's claims cache): building it reads
 * every word of the note, which on a stored note decodes the whole `words` column (claims-lazy.ts). `index` must be
 * what `thingIndex(n)` gives for claims equal to n's (the cache stores `thingIndex` of the claims it stores).
 */
export function adoptThingIndex(n: NoteClaims, index: ThingIndex): void {
  thingIndexes.set(n, index);
}
/** A note's things as a pair reads them (computed once per claims object). */
export function thingIndex(n: NoteClaims): ThingIndex {
  let index = thingIndexes.get(n);
  if (index) return index;
  const list: ThingEntry[] = [];
  const refused: number[] = [];
  const byKey = new Map<string, number[]>();
  const keys = new Set<string>();
  const under = (key: string, at: number): void => {
    const l = byKey.get(key);
    if (!l) byKey.set(key, [at]);
    else if (l[l.length - 1] !== at) l.push(at);
  };
  for (const [thing, stance] of n.things) {
    if (!onlyPos(stance) && !onlyNeg(stance)) continue;
    const oneWord = !/\s/.test(thing);
    const first = !oneWord || thing.startsWith('-') ? thing.split(/\s+/)[0]! : null;
    const at = list.push({ thing, stance, oneWord, first }) - 1;
    if (onlyNeg(stance)) {
      refused.push(at);
      keys.add(thing);
      if (!oneWord) for (const w of thing.split(/\s+/)) keys.add(w);
    } else {
      under(thing, at);
      if (first !== null) under(first, at);
    }
  }
  for (const [word, stance] of n.words) if (onlyNeg(stance)) keys.add(word);
  index = { list, refused, byKey, refusedKeys: [...keys] };
  thingIndexes.set(n, index);
  return index;
}

/** The places in x's list a pair with y tries: x's things only refused, and those only used that y may refuse, ascending. */
function thingsToTry(x: ThingIndex, y: ThingIndex): number[] {
  count('claims.thingReads', x.refused.length + y.refusedKeys.length);
  const out = [...x.refused];
  for (const key of y.refusedKeys) {
    const l = x.byKey.get(key);
    if (l) out.push(...l);
  }
  if (out.length > 1) {
    out.sort((p, q) => p - q);
    let w = 1;
    for (let r = 1; r < out.length; r++) if (out[r] !== out[w - 1]) out[w++] = out[r]!;
    out.length = w;
  }
  return out;
}

const onlyPos = (s: Stance): boolean => s.pos >= 0 && s.neg < 0;
const onlyNeg = (s: Stance): boolean => s.neg >= 0 && s.pos < 0;

/**
 * A note's frames as plain data (the guard's claims cache serializes it): frame f is clause `clause[f]` with the
 * word at `pos[f]` left out (its filler), the rest of the clause (`local[f]` = 0) or the four words after the
 * filler with the words before it (`local[f]` = 1, "use _ for all unit tests …"). Frames are told apart by their
 * words, exactly as the text `frameKey` writes; `hash` (52 bits of those words) only finds the candidates, so two
 * frames with one hash are still two frames. No frame's text is built unless a conflict quotes it.
 */
export interface FrameSet {
  /** The clauses frames are made of (4–14 tokens each) and the sentence each one is in. */
  readonly clauses: readonly (readonly string[])[];
  readonly at: Int32Array;
  /** Per frame, in the order first made (a later clause with the same frame replaces its clause and filler). */
  readonly hash: Float64Array;
  readonly clause: Int32Array;
  readonly pos: Uint8Array;
  readonly local: Uint8Array;
  /** Frame numbers sorted by hash. */
  readonly byHash: Int32Array;
}

/** 32-bit FNV-1a of a token. */
function tokenHash(t: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
const BLANK = 0x9e3779b9;
const LOCAL = 0x85ebca6b;

/** The hash of frame (toks, k, local): the words around the blank, in order (`th`: the clause's `len` token hashes). */
function frameHash(th: Uint32Array, len: number, k: number, local: boolean): number {
  const end = local ? k + 5 : len;
  let h1 = local ? LOCAL : 0x12345678,
    h2 = local ? 0x27d4eb2f : 0x165667b1;
  for (let i = 0; i < end; i++) {
    const t = i === k ? BLANK : th[i]!;
    h1 = Math.imul(h1 ^ t, 0x01000193) ^ (h1 >>> 15);
    h2 = Math.imul(h2 + t, 0x5bd1e995) ^ (h2 >>> 13);
  }
  h1 = Math.imul(h1 ^ end, 0x85ebca6b) >>> 0;
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0xc2b2ae35) >>> 0;
  return h1 * 0x100000 + (h2 >>> 12);
}

/** Whether frame f of x and frame g of y are one frame (same blank, same words around it). */
function sameFrame(x: FrameSet, f: number, y: FrameSet, g: number): boolean {
  const k = x.pos[f]!;
  if (k !== y.pos[g] || x.local[f] !== y.local[g]) return false;
  const a = x.clauses[x.clause[f]!]!,
    b = y.clauses[y.clause[g]!]!;
  const end = x.local[f] ? k + 5 : a.length;
  if (!x.local[f] && a.length !== b.length) return false;
  for (let i = 0; i < end; i++) if (i !== k && a[i] !== b[i]) return false;
  return true;
}

/** The frame's text: the clause with `_` for its filler ("use _ for all unit tests …"). */
export function frameKey(x: FrameSet, f: number): string {
  const toks = x.clauses[x.clause[f]!]!,
    k = x.pos[f]!;
  return x.local[f]
    ? `${toks.slice(0, k).join(' ')} _ ${toks.slice(k + 1, k + 5).join(' ')} …`
    : `${toks.slice(0, k).join(' ')} _ ${toks.slice(k + 1).join(' ')}`;
}

const fillerOf = (x: FrameSet, f: number): string => x.clauses[x.clause[f]!]![x.pos[f]!]!;
const frameAt = (x: FrameSet, f: number): number => x.at[x.clause[f]!]!;

/** The frame of `y` that is frame f of `x`, or -1. */
export function findFrame(y: FrameSet, x: FrameSet, f: number): number {
  const h = x.hash[f]!;
  for (let i = lowerBound(y, h); i < y.byHash.length && y.hash[y.byHash[i]!] === h; i++)
    if (sameFrame(x, f, y, y.byHash[i]!)) return y.byHash[i]!;
  return -1;
}

/** `/^\d/` of a token's first code unit. */
const isDigitCode = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** `/[\d._]/.test(t)`. */
function holdsDigitDotOrUnderscore(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (isDigitCode(c) || c === 0x2e || c === 0x5f) return true;
  }
  return false;
}
/**
 * Whether `isCjk(t)` may hold: Han, Hiragana, Katakana and Hangul have no character below U+1100 (Hangul Jamo, the
 * first), so a token whose code units are all below it is not CJK (test/claims-cheaper.test.ts checks every code point).
 */
export function mayBeCjk(t: string): boolean {
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) >= 0x1100) return true;
  return false;
}

class FrameBuilder {
  /** The token hashes of the clause being added (14 tokens at most). */
  private readonly tokenHashes = new Uint32Array(14);
  private readonly clauses: (readonly string[])[] = [];
  /** The text of each clause (its tokens are its words: `claimWords`). */
  private readonly texts: string[] = [];
  private readonly at: number[] = [];
  private readonly hash: number[] = [];
  private readonly clause: number[] = [];
  private readonly pos: number[] = [];
  private readonly local: number[] = [];
  /**
   * The frames by hash, as an open-addressing table of the 52-bit hashes (a Map of them boxed every key): per
   * distinct hash its first and last frame, and per frame the next one with its hash, in the order made.
   */
  private keys: Float64Array;
  private first: Int32Array;
  private last: Int32Array;
  private distinct = 0;
  private readonly next: number[] = [];

  /**
   * `sentences`: how many sentences the note has. The table starts at a size their frames are likely to need (a
   * hard-shaped note of ~100 sentences makes ~330 frames: it grew from 64 slots four times), a power of two.
   */
  constructor(sentences: number) {
    let size = 64;
    while (size < sentences * 8 && size < 4096) size *= 2;
    this.keys = new Float64Array(size);
    this.first = new Int32Array(size).fill(-1);
    this.last = new Int32Array(size);
  }

  /**
   * Each clause of 4–14 words, once per left-out content word: the rest is the frame, the word its filler.
   * Built once per note; comparing two notes is one look-up per frame of the smaller note.
   */
  addClause(toks: readonly string[], at: number, text: string): void {
    const len = toks.length;
    if (len < 4 || len > 14) return;
    // `toks.some(isCjk)` and the count of content words (not stop words, not opening with a digit), in one pass
    // without a regex per token: a token of code units below U+1100 holds no CJK character.
    let content = 0;
    for (let k = 0; k < len; k++) {
      const t = toks[k]!;
      if (mayBeCjk(t) && isCjk(t)) return;
      if (!STOPWORDS.has(t) && !isDigitCode(t.charCodeAt(0))) content++;
    }
    if (content < 4) return;
    let c = -1;
    const th = this.tokenHashes;
    for (let k = 0; k < len; k++) {
      const f = toks[k]!;
      if (f.length < 3 || STOPWORDS.has(f) || holdsDigitDotOrUnderscore(f)) continue;
      if (c < 0) {
        c = this.clauses.push(toks) - 1;
        this.texts.push(text);
        this.at.push(at);
        for (let q = 0; q < len; q++) th[q] = tokenHash(toks[q]!);
      }
      this.set(th, len, c, k, false);
      // The local frame too (a clause opening, four words after the filler): "use _ for all unit tests".
      if (k <= 2 && len >= k + 5) {
        let right = 0;
        for (let q = k + 1; q < k + 5; q++) if (!STOPWORDS.has(toks[q]!)) right++;
        if (right >= 3) this.set(th, len, c, k, true);
      }
    }
  }

  /** The table slot of hash h: its own, or the empty one where it would go. */
  private slot(h: number): number {
    const mask = this.keys.length - 1;
    let i = (h >>> 0) & mask;
    while (this.first[i] !== -1 && this.keys[i] !== h) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const { keys, first, last } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.first = new Int32Array(keys.length * 2).fill(-1);
    this.last = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (first[i] === -1) continue;
      const j = this.slot(keys[i]!);
      this.keys[j] = keys[i]!;
      this.first[j] = first[i]!;
      this.last[j] = last[i]!;
    }
  }

  private set(th: Uint32Array, len: number, c: number, k: number, local: boolean): void {
    count('claims.frames');
    const h = frameHash(th, len, k, local);
    let at = this.slot(h);
    // The probe (this frame as a one-frame set) only when the hash was seen: most frames are new.
    if (this.first[at] !== -1) {
      const probe = { clauses: this.clauses, clause: [c], pos: [k], local: [local ? 1 : 0] };
      for (let f = this.first[at]!; f !== -1; f = this.next[f]!)
        if (sameFrame(this as unknown as FrameSet, f, probe as unknown as FrameSet, 0)) {
          // The same frame again: the later clause gives it its filler (a Map set keeps the first place).
          this.clause[f] = c;
          return;
        }
    }
    const f = this.hash.push(h) - 1;
    this.clause.push(c);
    this.pos.push(k);
    this.local.push(local ? 1 : 0);
    this.next.push(-1);
    if (this.first[at] !== -1) {
      this.next[this.last[at]!] = f;
      this.last[at] = f;
      return;
    }
    if (2 * (this.distinct + 1) > this.keys.length) {
      this.grow();
      at = this.slot(h);
    }
    this.distinct++;
    this.keys[at] = h;
    this.first[at] = f;
    this.last[at] = f;
  }

  done(compact = false): FrameSet {
    const texts = this.texts;
    const hash = Float64Array.from(this.hash);
    // Frame numbers by hash, then by number: the distinct hashes sorted natively, each one's frames in the order
    // made (the table keeps them so).
    const sorted = new Float64Array(this.distinct);
    let u = 0;
    for (let i = 0; i < this.keys.length; i++) if (this.first[i] !== -1) sorted[u++] = this.keys[i]!;
    sorted.sort();
    const byHash = new Int32Array(hash.length);
    let w = 0;
    for (const h of sorted) for (let f = this.first[this.slot(h)]!; f !== -1; f = this.next[f]!) byHash[w++] = f;
    return {
      clauses: compact ? lazyArray(texts.length, (i) => claimWords(texts[i]!)) : this.clauses,
      at: Int32Array.from(this.at),
      hash,
      clause: Int32Array.from(this.clause),
      pos: Uint8Array.from(this.pos),
      local: Uint8Array.from(this.local),
      byHash,
    };
  }
}

/** A filler the other note takes no positive stance on (absent, or only refused: "we replaced Jest"). */
const notUsedIn = (n: NoteClaims, w: string): boolean => {
  const s = n.words.get(w) ?? n.things.get(w);
  return s === undefined || s.pos < 0;
};

/**
 * The same frame with a different filler in the two notes ("use Jest for all unit tests" / "use
 * Vitest for all unit tests"), where neither note uses the other's filler and the two fillers are
 * not one word spelled two ways.
 */
function frameConflict(a: NoteClaims, b: NoteClaims, shared?: SharedFrames): ClaimConflict | null {
  const [small, large] = a.frames.hash.length <= b.frames.hash.length ? [a, b] : [b, a];
  const sf = small.frames,
    lf = large.frames;
  const only = shared?.frames(sf, lf);
  const n = only ? only.length : sf.hash.length;
  count('claims.frameLookups', n);
  for (let q = 0; q < n; q++) {
    const f = only ? only[q]! : q;
    const g = findFrame(lf, sf, f);
    if (g < 0) continue;
    const fs = { filler: fillerOf(sf, f), at: frameAt(sf, f) },
      fl = { filler: fillerOf(lf, g), at: frameAt(lf, g) };
    if (fl.filler === fs.filler || typoLevel(fl.filler, fs.filler)) continue;
    if (!notUsedIn(large, fs.filler) || !notUsedIn(small, fl.filler)) continue;
    const [fa, fb] = small === a ? [fs, fl] : [fl, fs];
    return {
      kind: 'value',
      detail: `${fa.filler} vs ${fb.filler} in "${frameKey(sf, f).replace(/\s+/g, ' ').trim()}"`,
      a: fa.at,
      b: fb.at,
    };
  }
  return null;
}

/**
 * Which frames of the smaller note of a pair to look up in the larger (`frames(small, large)`, ascending; a look-up
 * that finds no frame is wasted, never wrong): a frame whose hash the other note has no frame of cannot be the same
 * frame in both. `pairSharedFrames` answers per pair from the larger note's filter of its frame hashes, so the
 * contradictions stage holds a note's claims only while it has pairs left to compare (a table of every compared
 * note's frames, made before any pair was compared, kept all of them alive: hard 100k ran out of heap).
 */
export interface SharedFrames {
  frames(small: FrameSet, large: FrameSet): Int32Array;
}

const NONE = new Int32Array(0);
const TWO_32 = 4294967296;

/**
 * A Bloom filter of a frame set's hashes: 32 bits per frame, two bits per hash (a hash not in the set passes with a
 * chance of ~0.4%). Made on first use, kept as long as the frame set (4 bytes per frame; the set holds ~18 in typed
 * arrays alone).
 */
const filters = new WeakMap<FrameSet, Uint32Array>();
function filterOf(x: FrameSet): Uint32Array {
  let bits = filters.get(x);
  if (bits) return bits;
  let words = 1;
  while (words < x.hash.length) words *= 2;
  bits = new Uint32Array(words);
  const mask = words * 32 - 1;
  for (let f = 0; f < x.hash.length; f++) {
    const h = x.hash[f]!;
    const lo = h >>> 0,
      hi = (h / TWO_32) | 0;
    const b1 = lo & mask,
      b2 = Math.imul(hi ^ (lo >>> 16), 0x9e3779b1) & mask;
    bits[b1 >>> 5]! |= 1 << (b1 & 31);
    bits[b2 >>> 5]! |= 1 << (b2 & 31);
  }
  filters.set(x, bits);
  return bits;
}

/**
 * The frames of `small` whose hash may be among `large`'s, ascending: every frame whose hash `large` has, and a few
 * (~0.4%) whose hash it has not (its filter's false positives: their look-up finds nothing). One test per frame of
 * `small`; the larger note's filter is made once.
 */
export function framesSharedWith(small: FrameSet, large: FrameSet): Int32Array {
  const bits = filterOf(large);
  const mask = bits.length * 32 - 1;
  const sh = small.hash;
  count('claims.framePairSteps', sh.length);
  let out: number[] | undefined;
  for (let f = 0; f < sh.length; f++) {
    const h = sh[f]!;
    const lo = h >>> 0,
      hi = (h / TWO_32) | 0;
    const b1 = lo & mask,
      b2 = Math.imul(hi ^ (lo >>> 16), 0x9e3779b1) & mask;
    if ((bits[b1 >>> 5]! & (1 << (b1 & 31))) !== 0 && (bits[b2 >>> 5]! & (1 << (b2 & 31))) !== 0) (out ??= []).push(f);
  }
  return out ? Int32Array.from(out) : NONE;
}

export const pairSharedFrames: SharedFrames = { frames: framesSharedWith };

/** The first place in x.byHash whose hash is not below h. */
function lowerBound(x: FrameSet, h: number): number {
  let lo = 0,
    hi = x.byHash.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x.hash[x.byHash[mid]!]! < h) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Conflicting claims of two notes: one key given disjoint values, or one thing used in one and only refused in the other. */
export function claimConflict(a: NoteClaims, b: NoteClaims, shared?: SharedFrames): ClaimConflict | null {
  for (const [key, ea] of a.values) {
    const eb = b.values.get(key);
    if (!eb) continue;
    if ([...ea.values].some((v) => eb.values.has(v))) continue;
    // A note that states the other's value too, as a distinctive thing it uses, knows both: two settings, not a change.
    if (
      [...ea.values].some((v) => (b.things.get(v)?.pos ?? -1) >= 0) ||
      [...eb.values].some((v) => (a.things.get(v)?.pos ?? -1) >= 0)
    )
      continue;
    const label = key.replace(/^(?:=|:|is:)/, '');
    // A number with a unit is keyed loosely (the words before it): neither note may write the other's number anywhere.
    if (
      key.includes('#') &&
      ([...ea.values].some((v) => b.numbers.has(v)) || [...eb.values].some((v) => a.numbers.has(v)))
    )
      continue;
    // `key: value` in code (CSS, YAML) recurs in many contexts: two shared words of subject.
    if (!sharesSubject(a, ea.at, b, eb.at, label, /^(?::|is:)/.test(key) ? 2 : 1)) continue;
    return {
      kind: 'value',
      detail: `${label}: ${[...ea.values].join(', ')} vs ${[...eb.values].join(', ')}`,
      a: ea.at,
      b: eb.at,
    };
  }
  const frame = frameConflict(a, b, shared);
  if (frame) return frame;
  const [small, large] = a.rules.size <= b.rules.size ? [a, b] : [b, a];
  for (const [key, r] of small.rules) {
    const o = large.rules.get(key);
    if (!o || o.refuse === r.refuse) continue;
    const [ra, rb] = small === a ? [r, o] : [o, r];
    return {
      kind: 'polarity',
      detail: `"${key}" ${ra.refuse ? 'refused' : 'required'} in one, ${rb.refuse ? 'refused' : 'required'} in the other`,
      a: ra.at,
      b: rb.at,
    };
  }
  // Each thing once: a thing of b that a names too was a's to try. Things both used and refused in their own note
  // are left out of the lists (they never conflict), and so are things only used that the other note cannot refuse.
  const [ia, ib] = [thingIndex(a), thingIndex(b)];
  for (const [x, y, tx, ty] of [
    [a, b, ia, ib],
    [b, a, ib, ia],
  ] as const) {
    for (const at of thingsToTry(tx, ty)) {
      const { thing, stance: sx, oneWord, first } = tx.list[at]!;
      if (x === b && a.things.has(thing)) continue;
      // Its stance in y: as a thing (code span, identifier), else as a word of y's prose.
      let sy = y.things.get(thing);
      let prose = false;
      if (!sy && oneWord) {
        sy = y.words.get(thing);
        prose = sy !== undefined;
      }
      // A command or flag inside a longer span of the other note: only spans holding its first word are tried.
      if (!sy && first !== null)
        for (const other of spansWith(y, first))
          if (sameThing(thing, other)) {
            sy = y.things.get(other);
            break;
          }
      if (!sy) continue;
      // A word of prose may be what is refused ("nunca localStorage"), not what is used: "merged into main" is not `main`.
      const used = onlyPos(sx);
      if (used ? !onlyNeg(sy) : !onlyPos(sy) || prose) continue;
      const ix = used ? sx.pos : sx.neg,
        iy = used ? sy.neg : sy.pos;
      // A one-word thing (`main`, `open`, an address) needs one more shared word of subject; a command is specific enough.
      if (oneWord && !sharesSubject(x, ix, y, iy, thing)) continue;
      const flip = x === b;
      if (used)
        return flip
          ? { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: iy, b: ix }
          : { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: ix, b: iy };
      return flip
        ? { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: iy, b: ix }
        : { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: ix, b: iy };
    }
  }
  return null;
}
