/**
 * A note's claims, computed once per note (never per pair) from its clauses: the values it gives
 * keys (`PORT=3000`, `--timeout=30`, `timeZone: Asia/Taipei`, `localhost:5173`, a cron expression,
 * "the digest is `0 9 * * *`") and the stance it takes on things (code spans, identifiers such as
 * `FINMIND_TOKEN` or `localStorage`, a command's name): used, or refused/retired. Two notes on one
 * subject contradict when they give one key disjoint values, or when one only uses a thing the other
 * only refuses. Code spans, identifiers, numbers and paths read the same in every language, so the
 * claims do too; the refusal markers cover the corpus's languages (en, pt, es, zh, ko, ja).
 */
import { stem } from './lexicon.js';
import { isCjk, STOPWORDS, tokens as tokenize } from './text.js';

/** A clause as the claims read it: its raw text and its tokens (code spans' text kept, paths and URLs dropped). */
export interface ClaimClause { readonly text: string; readonly tokens: readonly string[] }

/** Words and phrases by which a clause refuses or retires what it names. */
const REFUSE_EN = /\b(?:not|no|never|don't|dont|do not|doesn't|isn't|aren't|won't|can't|cannot|avoid|stop|forbid|forbids|forbidden|prohibited|banned|disabled?|deprecated|removed|dropped|deleted|gone|obsolete|no longer|anymore|instead of|unreliable|dangerous|unsafe|bypass)\b/i;
const REFUSE_ROMANCE = /(?:^|[^\p{L}])(?:não|nao|nunca|jamais|evitar|evite|proibido|proibida|removid[oa]s?|descontinuad[oa]s?|nunca|prohibido|evita)(?=$|[^\p{L}])/iu;
const REFUSE_CJK = /不要|不再|不能|不用|不可|别|勿|禁止|停用|失效|移除|删除|刪除|废弃|廢棄|沒有|没有|금지|않|말고|말 것|삭제|폐기|없다|없음|중단/;
/** Words that make a clause an exception or a case, not the rule ("only for…", "may", "still", "unless"). */
const SCOPED = /^\W*(?:when|whenever)\b|\b(?:only|unless|except|may|might|still|legacy|until|if|optionally)\b|(?:^|[^\p{L}])(?:só|somente|apenas|exceto|ainda|salvo)(?=$|[^\p{L}])|只|仅|僅|除非|除了|仍|단,/iu;

/** Portuguese/Spanish function words: in such a clause "no" is "in the", not a refusal. */
const ROMANCE = /(?:^|[^\p{L}])(?:da|do|de|em|para|com|os|as|um|uma|na|é|são|que|el|la|los|del|en)(?=$|[^\p{L}])/iu;
export function refuses(text: string): boolean {
  const en = REFUSE_EN.exec(text);
  const enRefuses = en !== null && (en[0].toLowerCase() !== 'no' || !ROMANCE.test(text) || REFUSE_EN.test(text.replace(/\bno\b/gi, ' ')));
  return enRefuses || REFUSE_ROMANCE.test(text) || REFUSE_CJK.test(text);
}
export const scoped = (text: string): boolean => SCOPED.test(text);

/** The stance a note takes on one thing: sentences where it is used, and where it is refused. */
export interface Stance { pos: number; neg: number }
export interface ValueClaim { readonly values: Set<string>; readonly at: number }

export interface NoteClaims {
  /** Thing (code span or identifier, lower-cased) → first sentence using it / refusing it (-1: none). */
  readonly things: Map<string, Stance>;
  /** Every token of every unscoped clause → stance (a thing named in prose: "nunca localStorage"). */
  readonly words: Map<string, Stance>;
  /** Key → the values the note gives it in clauses that do not refuse them. */
  readonly values: Map<string, ValueClaim>;
  /** Values the note refuses or retires ("5050 não é mais usada", "旧的 100.85.28.37 已失效"). */
  readonly refusedValues: Set<string>;
  /** What the note uses in a role: the filler after a verb of use ("use Jest for unit tests", "managed with `uv`"), with its sentence. */
  readonly uses: { readonly filler: string; readonly at: number }[];
  /** Content stems of each sentence (the subject two claims must share besides their key). */
  readonly subject: readonly Set<string>[];
}

const CODE = /`([^`\n]{1,120})`/g;
/** Identifiers in prose: camelCase / PascalCase with an inner capital, SCREAMING_SNAKE. */
const IDENT = /(?<![\w$-])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w-])/g;
/** `KEY=value`, `--flag=value` (not `==`, not inside a URL query). */
const ASSIGN = /(?<![\w./?&=-])(--?[a-z][\w-]*|[A-Za-z_][\w.]*)\s?=(?!=)\s?("[^"\n]*"|'[^'\n]*'|[^\s`,;)\]}"']+)/g;
/** `key: value` inside a code span (YAML, JSON, headers). */
const COLON_IN_CODE = /^"?([A-Za-z_][\w.-]*)"?\s*:\s+(\S.*)$/;
/** host:port */
const HOST_PORT = /\b(localhost|127\.0\.0\.1|0\.0\.0\.0)?:(\d{2,5})(?![\d.:])/g;
/** Five cron fields. */
const CRON = /^((?:[\d*][\d*,/-]*\s+){4}[\d*][\d*,/-]*)(?:\s|$)/;
/** "<key> is `value`", "<key>: `value`", "<key> = `value`". */
const IS_CODE = /([\p{L}_][\p{L}\p{N}_.-]*)\s*(?:\*\*)?\s*(?:is|are|=|:|：)\s*(?:therefore\s+|now\s+|always\s+)?(?:\*\*)?`([^`\n]{1,80})`/gu;

const norm = (v: string): string => v.trim().replace(/^["']|["']$/g, '').replace(/^v(?=\d)/, '').replace(/,(?=\d{3})/g, '').replace(/(?:\.0+)+$/, '').toLowerCase();

/** A thing's name: a code span trimmed, a trailing `=…` / `…` dropped. */
function thingOf(code: string): string {
  return code.trim().toLowerCase().replace(/\s*=\s*(?:\.\.\.|…)?$/, '').replace(/(?:\.\.\.|…)$/, '').trim();
}

const GENERIC_HEADS = new Set(['npx', 'npm', 'pnpm', 'yarn', 'sudo', 'cd', 'python', 'python3', 'node', 'bash', 'sh', 'env', 'cat', 'echo', 'ls', 'make', 'uv', 'poetry', 'pip', 'go', 'cargo']);

function add(m: Map<string, Stance>, key: string, i: number, neg: boolean): void {
  const e = m.get(key) ?? { pos: -1, neg: -1 };
  if (neg) { if (e.neg < 0) e.neg = i; } else if (e.pos < 0) e.pos = i;
  m.set(key, e);
}

function addValue(values: Map<string, ValueClaim>, refused: Set<string>, key: string, v: string, i: number, neg: boolean): void {
  const value = norm(v);
  if (value === '' || value.length > 60) return;
  if (neg) { refused.add(value); return; }
  const e = values.get(key) ?? { values: new Set<string>(), at: i };
  e.values.add(value);
  values.set(key, e);
}

/** Content stems of a sentence; CJK text gives its character bigrams. */
function subjectOf(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (isCjk(t)) { const n = tokens[k + 1]; if (n !== undefined && isCjk(n)) out.add(t + n); continue; }
    if (t.length > 2 && !STOPWORDS.has(t) && !/^\d/.test(t)) out.add(stem(t));
    // `dashboard.html`, `concept_charts.py`: the parts name the subject too.
    if (/[._-]/.test(t)) for (const part of t.split(/[._-]+/)) if (part.length > 3 && !STOPWORDS.has(part) && !/^\d/.test(part)) out.add(stem(part));
  }
  return out;
}

/**
 * Clauses for claims: a negation keeps its scope over parentheses and a colon ("NEVER use CLI tools
 * (cidx init) or SSH"), not across a dash, a semicolon, "but" or a CJK comma.
 */
const CLAIM_SPLIT = /;|；|,(?=\s*[\p{Script=Han}\p{Script=Hangul}])|\s[-–—]\s|—|\s+but\s+|，|,\s*(?=(?:never|not|don't|do not|no|but|não|nunca|nem|mas)(?:$|[^\p{L}]))/iu;
/** Code spans keep their text; paths and URLs are names, not words of the statement. */
const NOT_WORDS = /[a-z][a-z0-9+.-]*:\/\/\S+|(?:~|\.{0,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+/gi;
/** Values that name one thing wherever they appear: a time of day, an IP address, a dotted version, a port-sized number. */
const DISTINCT = /(?<![\w.:])(?:\d{1,2}:\d{2}(?!:\d)|\d{1,3}(?:\.\d{1,3}){3}|\d+\.\d+\.\d+|[1-9]\d{3,4})(?![\w.:-]|\.\d)/g;
/** A number with its unit ("25 MB", "30 s", "80%", "4시"). */
const NUM_UNIT = /(?<![\w.,:/-])(\d+(?:[.,]\d+)?)\s?(%|[a-z]{1,3}\b|[\p{Script=Han}\p{Script=Hangul}])/giu;

export function claimSentences(texts: readonly string[]): { readonly clauses: readonly ClaimClause[]; readonly tokens: readonly string[] }[] {
  return texts.map((text) => {
    const clauses = text.split(CLAIM_SPLIT).map((c) => c.trim()).filter((c) => c.length > 1)
      .map((c) => ({ text: c, tokens: tokenize(c.replace(NOT_WORDS, ' ')) }));
    return { clauses, tokens: tokenize(text.replace(NOT_WORDS, ' ')) };
  });
}

const YEAR = /^(?:19|20)\d{2}$/;
/** A verb of use, then the filler: a code span or one word ("use Jest for…", "bundled with webpack", "usa o Poetry", "改用 pnpm"). */
const USE = /(?:\b(?:use|uses|using|prefer|prefers|runs? on|built with|bundled with|managed with|switched to|moved to|migrated to|usa|usar|usamos|migrad[oa]s? para)\s+(?:the\s+|a\s+|an\s+|o\s+|a\s+)?|(?:使用|改用|用|사용)\s*)(`[^`\n]{1,60}`|[\p{L}][\p{L}\p{N}_.+-]*)/giu;
/** Port numbers: "port 8000", "porta 5050", "端口 9527", "8765 端口", "포트 3000". */
const PORT = /(?:\b(?:port|porta|puerto)\s*[:=]?\s*|端口\s*[:：]?\s*|포트\s*)(\d{2,5})\b|\b(\d{2,5})\s*(?:端口|포트)/giu;
/** "<word> <number>" with no unit: a version or a setting ("Node 18", "Python 3.11", "timeout 30"). */
const WORD_NUM = /\b([A-Za-z][\w.+-]*)\s+v?(\d+(?:\.\d+)*)(?![\w.:%/-])/g;

export function noteClaims(sentences: readonly { readonly clauses: readonly ClaimClause[]; readonly tokens: readonly string[] }[]): NoteClaims {
  const things = new Map<string, Stance>();
  const words = new Map<string, Stance>();
  const values = new Map<string, ValueClaim>();
  const refusedValues = new Set<string>();
  const subject: Set<string>[] = [];
  const uses: { filler: string; at: number }[] = [];
  sentences.forEach((s, i) => {
    subject.push(subjectOf(s.tokens));
    for (const c of s.clauses) {
      const neg = refuses(c.text.replace(CODE, ' '));
      const isScoped = scoped(c.text.replace(CODE, ' '));
      if (!isScoped) for (const t of c.tokens) if (t.length > 1 && !STOPWORDS.has(t)) add(words, t, i, neg);
      const codes = [...c.text.matchAll(CODE)].map((m) => m[1]!);
      if (!isScoped) {
        for (const code of codes) {
          const t = thingOf(code);
          if (t.length < 2) continue;
          add(things, t, i, neg);
          const head = t.split(/\s+/);
          if (head.length > 1 && /^[a-z][a-z0-9_-]{2,}$/.test(head[0]!) && !GENERIC_HEADS.has(head[0]!)) add(things, head[0]!, i, neg);
        }
        for (const m of c.text.replace(CODE, ' ').matchAll(IDENT)) add(things, m[0].toLowerCase(), i, neg);
        for (const m of c.text.matchAll(DISTINCT)) if (!YEAR.test(m[0])) add(things, m[0], i, neg);
      }
      // Values: refused ones are remembered (the old value named as gone), scoped ones are not claims.
      if (isScoped && !neg) continue;
      for (const m of c.text.matchAll(ASSIGN)) addValue(values, refusedValues, `=${m[1]!.toLowerCase()}`, m[2]!, i, neg);
      for (const m of c.text.matchAll(HOST_PORT)) if (m[1] || /\b(?:https?:\/\/|port\b)/i.test(c.text)) addValue(values, refusedValues, `port@${m[1] ?? 'host'}`, m[2]!, i, neg);
      for (const code of codes) {
        const cron = CRON.exec(code.trim());
        if (cron) addValue(values, refusedValues, 'cron', cron[1]!.replace(/\s+/g, ' '), i, neg);
        const kv = COLON_IN_CODE.exec(code.trim());
        if (kv && !/^https?$/i.test(kv[1]!)) addValue(values, refusedValues, `:${kv[1]!.toLowerCase()}`, kv[2]!, i, neg);
      }
      const prose = c.text.replace(CODE, ' ').replace(NOT_WORDS, ' ');
      const toks = tokenize(prose);
      for (const m of prose.matchAll(NUM_UNIT)) {
        const unit = m[2]!.toLowerCase();
        if (STOPWORDS.has(unit) || /^(?:x|th|st|nd|rd|am|pm)$/.test(unit)) continue;
        // The key: the content words just before the number (two at most), each with the unit.
        const before = tokenize(prose.slice(0, m.index)).filter((t) => !STOPWORDS.has(t) && !/^\d/.test(t)).slice(-2);
        for (const w of before) addValue(values, refusedValues, `${isCjk(w) ? w : stem(w)}#${unit}`, m[1]!, i, neg);
      }
      for (const m of prose.matchAll(/(?<![\d:])(\d{1,2}:\d{2})(?![\d:])/g)) {
        const at = prose.slice(0, m.index);
        const before = tokenize(at).filter((t) => !STOPWORDS.has(t) && !/^\d/.test(t) && !isCjk(t)).slice(-2);
        const after = tokenize(prose.slice(m.index + m[0].length)).filter((t) => !STOPWORDS.has(t) && !/^\d/.test(t) && !isCjk(t)).slice(0, 1);
        for (const w of [...before, ...after]) addValue(values, refusedValues, `${stem(w)}@time`, m[1]!, i, neg);
      }
      void toks;
      if (!neg) for (const m of c.text.matchAll(USE)) {
        const f = m[1]!.replace(/`/g, '').trim().toLowerCase();
        if (f.length >= 2 && !STOPWORDS.has(f) && !/^\d/.test(f)) uses.push({ filler: f, at: i });
      }
      for (const m of c.text.matchAll(PORT)) addValue(values, refusedValues, 'port', (m[1] ?? m[2])!, i, neg);
      for (const m of prose.matchAll(WORD_NUM)) {
        const w = m[1]!.toLowerCase();
        if (STOPWORDS.has(w) || w.length < 3 || /^(?:port|porta|puerto|step|phase|part|issue|pr|item|line|lines|page|section|chapter|version|v)$/.test(w)) continue;
        addValue(values, refusedValues, `${stem(w)}#v`, m[2]!.split('.')[0]!, i, neg);
      }
      for (const m of c.text.matchAll(IS_CODE)) {
        const key = m[1]!.toLowerCase();
        if (STOPWORDS.has(key) || key.length < 3) continue;
        addValue(values, refusedValues, `is:${stem(key)}`, m[2]!, i, neg);
      }
    }
  });
  return { things, words, values, refusedValues, subject, uses };
}

export interface ClaimConflict { readonly kind: 'value' | 'polarity'; readonly detail: string; readonly a: number; readonly b: number }

/**
 * The two sentences holding the claims share a content word besides the key: one subject. A number
 * keyed by the word before it and its unit ("upload … 25 MB" / "uploads … 10 MB") has its subject in the key.
 */
const sharesSubject = (a: NoteClaims, i: number, b: NoteClaims, j: number, key: string): boolean => {
  if (key.includes('#')) return true;
  const except = new Set([key, stem(key), ...tokenize(key), ...tokenize(key).map(stem)]);
  const sb = b.subject[j]!;
  for (const t of a.subject[i]!) if (!except.has(t) && sb.has(t)) return true;
  return false;
};

/** Two things naming one: equal, or the shorter one's words in order among the longer one's (`--no-verify` in `git push --no-verify`). */
function sameThing(x: string, y: string): boolean {
  if (x === y) return true;
  const [s, l] = x.length < y.length ? [x, y] : [y, x];
  if (s.length < 4) return false;
  const sw = s.split(/\s+/), lw = l.split(/\s+/);
  let k = 0;
  for (const w of lw) if (k < sw.length && w === sw[k]) k++;
  return k === sw.length;
}

/** A thing's stance in a note: as a thing (code span, identifier), else as a word of its prose (`prose` set). */
function stanceIn(n: NoteClaims, thing: string): (Stance & { prose?: true }) | undefined {
  const direct = n.things.get(thing);
  if (direct) return direct;
  const w = /\s/.test(thing) ? undefined : n.words.get(thing);
  return w ? { ...w, prose: true } : undefined;
}

const onlyPos = (s: Stance): boolean => s.pos >= 0 && s.neg < 0;
const onlyNeg = (s: Stance): boolean => s.neg >= 0 && s.pos < 0;

/** Conflicting claims of two notes: one key given disjoint values, or one thing used in one and only refused in the other. */
export function claimConflict(a: NoteClaims, b: NoteClaims): ClaimConflict | null {
  for (const [key, ea] of a.values) {
    const eb = b.values.get(key);
    if (!eb) continue;
    if ([...ea.values].some((v) => eb.values.has(v))) continue;
    // A note that states the other's value too, as a distinctive thing it uses, knows both: two settings, not a change.
    if ([...ea.values].some((v) => (b.things.get(v)?.pos ?? -1) >= 0) || [...eb.values].some((v) => (a.things.get(v)?.pos ?? -1) >= 0)) continue;
    const label = key.replace(/^(?:=|:|is:)/, '');
    if (!sharesSubject(a, ea.at, b, eb.at, label)) continue;
    return { kind: 'value', detail: `${label}: ${[...ea.values].join(', ')} vs ${[...eb.values].join(', ')}`, a: ea.at, b: eb.at };
  }
  const alt = alternatives(a, b);
  if (alt) return alt;
  const seen = new Set<string>();
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const [thing, sx] of x.things) {
      if (seen.has(thing)) continue;
      seen.add(thing);
      let sy = stanceIn(y, thing);
      if (!sy) for (const [other, s] of y.things) if (sameThing(thing, other)) { sy = s; break; }
      if (!sy) continue;
      const flip = x === b;
      // A word of prose may be what is refused ("nunca localStorage"), not what is used: "merged into main" is not `main`.
      if (onlyPos(sx) && onlyNeg(sy)) return flip ? { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: sy.neg, b: sx.pos } : { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: sx.pos, b: sy.neg };
      if (onlyNeg(sx) && onlyPos(sy) && !sy.prose) return flip ? { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: sy.pos, b: sx.neg } : { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: sx.neg, b: sy.pos };
    }
  }
  return null;
}

/** Words of a sentence's subject that say nothing of its role. */
const mentions = (n: NoteClaims, f: string): boolean => n.words.has(f) || n.things.has(f) || [...n.things.keys()].some((t) => t.split(/\s+/)[0] === f);

/**
 * Two alternatives in one role: each note uses a different filler in sentences about the same
 * thing ("use Jest for unit tests" / "use Vitest for unit tests", "deps managed with `uv`" / "uses
 * Poetry … `poetry install`"), and neither note names the other's filler anywhere.
 */
function alternatives(a: NoteClaims, b: NoteClaims): ClaimConflict | null {
  for (const ua of a.uses) for (const ub of b.uses) {
    if (ua.filler === ub.filler || mentions(b, ua.filler) || mentions(a, ub.filler)) continue;
    const sb = b.subject[ub.at]!;
    let shared = 0;
    for (const t of a.subject[ua.at]!) if (sb.has(t) && t !== stem(ua.filler) && t !== stem(ub.filler)) shared++;
    if (shared >= 2) return { kind: 'value', detail: `${ua.filler} vs ${ub.filler} in one role`, a: ua.at, b: ub.at };
  }
  return null;
}
