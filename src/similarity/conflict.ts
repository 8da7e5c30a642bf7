/**
 * Whether two sentences about one subject disagree: opposite polarity, different values for the
 * same key, or a replaced tool. Anchored on shared content words so that firm English ("never",
 * "always") does not fire across subjects.
 */
import type { VaultFile } from '../vault/model.js';
import { NEGATIONS, sentences, STOPWORDS, tokens, type Sentence } from './text.js';

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
const sameFamily = (a: string, b: string): boolean => [...(FAMILIES_OF.get(a) ?? [])].some((f) => FAMILIES_OF.get(b)?.has(f));

const DATE = /^\d{4}-\d{2}(-\d{2})?$|^\d{1,2}[/:]\d{2}/;
const NUMBER = /^v?\d+(?:[.,]\d+)*$/;
const REPLACED = /\b(?:replaced|switched (?:from|to)|migrated (?:from|to)|moved (?:away )?from|instead of|no longer|dropped|removed|deprecated|retired|is gone|are gone|not installed|decommissioned)\b/;
/** "<term> is gone / was removed / is decommissioned": the words before it name something retired. */
const RETIRED = /((?:[\p{L}\p{N}_.-]+\s+){0,2}[\p{L}\p{N}_.-]+)\s+(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:gone|removed|deprecated|decommissioned|dropped|retired|deleted|obsolete|not installed)\b/giu;
const SETTING_VERBS = new Set(['prefer', 'prefers', 'preferred', 'want', 'wants', 'default', 'defaults', 'set', 'sets', 'use', 'uses', 'choose', 'chooses', 'pick', 'picks', 'pin', 'pins', 'deploy', 'deploys', 'target', 'targets', 'like', 'likes']);

export interface ClauseView {
  readonly text: string;
  readonly tokens: readonly string[];
  readonly content: ReadonlySet<string>;
  readonly negated: boolean;
  readonly values: ReadonlyMap<string, string>;
  readonly tools: ReadonlySet<string>;
  readonly replaces: boolean;
  /** Noun phrases (content words) the clause says are gone, removed, decommissioned… */
  readonly retired: readonly (readonly string[])[];
  /** Tools the clause rejects or says were replaced. */
  readonly old: ReadonlySet<string>;
  /** Tools the clause uses ("with Jest", "runs vitest", "Jest for unit tests"), not merely mentions. */
  readonly used: ReadonlySet<string>;
}

export interface SentenceView extends ClauseView {
  /** Negation is judged per clause: "use pnpm; never run npm install" negates only npm. */
  readonly clauses: readonly ClauseView[];
}

/** Clauses: a negation keeps its scope over a comma list ("do not rephrase, weaken or stall"). */
const CLAUSE_SPLIT = /;|:\s|\s[-–—]\s|—|\s+but\s+|\s*[()]\s*|,\s*(?=(?:never|not|don't|do not|no)\b)/i;
/** Words that set polarity or force, not subject. */
const MARKERS = new Set(['always', 'must', 'should', 'please', 'every', 'all', 'enable', 'enabled', 'allow', 'allowed']);

export function viewSentence(text: string): SentenceView {
  const whole = viewClause(text);
  const parts = text.split(CLAUSE_SPLIT).map((c) => c.trim()).filter((c) => c.length > 2);
  return { ...whole, clauses: parts.length > 1 ? parts.map(viewClause) : [whole] };
}

/** Code spans, URLs and file paths name things; they are not the statement. */
const NOT_PROSE = /`[^`]*`|[a-z][a-z0-9+.-]*:\/\/\S+|(?:~|\.{0,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+|"[^"]{3,}"|“[^”]{3,}”/gi;

function viewClause(raw: string): ClauseView {
  const text = raw;
  const toks = tokens(raw.replace(NOT_PROSE, (m) => (/^`[^`/]*`$/.test(m) ? m.slice(1, -1) : ' ')));
  const content = new Set<string>();
  const values = new Map<string, string>();
  const tools = new Set<string>();
  let negated = false;
  const lower = text.toLowerCase();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (NEGATIONS.has(t) || /n't$/.test(t)) { negated = true; continue; }
    if (FAMILIES_OF.has(t)) tools.add(t);
    if (NUMBER.test(t) && !DATE.test(t)) continue;
    if (!STOPWORDS.has(t) && !MARKERS.has(t) && t.length > 1) content.add(t);
  }
  if (/\bnever\b|\bdo not\b|\bdon't\b/.test(lower)) negated = true;
  // Values are keyed within comma-separated segments: in "82K files, 22 languages" 22 is languages.
  for (const segment of raw.replace(NOT_PROSE, ' ').split(/,\s+/)) {
    const seg = tokens(segment);
    for (let i = 0; i < seg.length; i++) {
      const t = seg[i]!;
      if (!NUMBER.test(t) || DATE.test(t)) continue;
      const v = t.replace(/^v/, '');
      for (const prev of previousWords(seg, i)) values.set(prev, v);
      const next = seg[i + 1];
      if (next && !STOPWORDS.has(next) && !NUMBER.test(next)) values.set(`${next}#after`, v);
    }
  }
  const phrases: string[][] = [];
  for (const m of text.matchAll(RETIRED)) {
    const words = tokens(m[1]!).filter((t) => !STOPWORDS.has(t) && !NEGATIONS.has(t) && !MARKERS.has(t) && t.length > 2);
    if (words.length) phrases.push(words);
  }
  return { text, tokens: toks, content, negated, values, tools, replaces: REPLACED.test(lower), retired: phrases, old: oldTools(lower, tools), used: usedTools(lower, tools) };
}

/** The cue patterns for one tool name, compiled once per process (guard and consolidate view thousands of clauses). */
interface ToolCues { readonly used: RegExp; readonly rejectedAfter: RegExp; readonly rejectedBefore: RegExp }
const cueCache = new Map<string, ToolCues>();

function cuesFor(t: string): ToolCues {
  let c = cueCache.get(t);
  if (!c) {
    c = {
      used: new RegExp(`\\b(?:use|uses|using|used|run|runs|running|with|via|prefer|prefers|choose|chooses|pick|install|installs|adopt|on|in)\\s+(?:[\\w.-]+\\s+){0,2}${t}\\b|^${t}\\b|\\b${t}\\s+(?:for|to|is used)\\b|\\bto\\s+${t}\\b`),
      rejectedAfter: new RegExp(`\\b(?:replaced|from|instead of|dropped|removed)\\s+(?:the\\s+)?${t}\\b|\\b(?:never|don't|do not|not|no longer|avoid|stop)\\s+(?:[\\w-]+\\s+){0,2}${t}\\b`),
      rejectedBefore: new RegExp(`\\b${t}\\b[^.;]*?\\b(?:was|is|were|are|has been)\\s+(?:now\\s+)?(?:removed|dropped|gone|deprecated|retired|not installed|replaced)`),
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
  for (const ca of a.clauses) for (const cb of b.clauses) {
    const v = value(ca, cb);
    if (v) return v;
  }
  const retiredUse = retiredInOther(a, b) ?? retiredInOther(b, a);
  if (retiredUse) return retiredUse;
  for (const ca of a.clauses) for (const cb of b.clauses) {
    const c = polarity(ca, cb) ?? substitution(ca, cb);
    if (c) return c;
  }
  return null;
}

/** One sentence relies on what the other says is gone. */
function retiredInOther(user: SentenceView, sayer: SentenceView): Conflict | null {
  if (sayer.retired.length === 0 || user.negated) return null;
  for (const phrase of sayer.retired) {
    if (!phrase.every((t) => user.content.has(t))) continue;
    if (shared(user.content, sayer.content, new Set(phrase)).length >= 1) return { kind: 'retired', detail: `"${phrase.join(' ')}" is used in one and gone in the other` };
  }
  return null;
}

/** The same setting with one word swapped: "prefers answers in Korean" / "… in English". */
function substitution(a: ClauseView, b: ClauseView): Conflict | null {
  if (a.negated !== b.negated) return null;
  const onlyA = [...a.content].filter((t) => !b.content.has(t));
  const onlyB = [...b.content].filter((t) => !a.content.has(t));
  if (onlyA.length !== 1 || onlyB.length !== 1) return null;
  const common = shared(a.content, b.content);
  if (common.length < 2 || !common.some((t) => SETTING_VERBS.has(t))) return null;
  return { kind: 'substitution', detail: `${onlyA[0]} vs ${onlyB[0]}` };
}

function polarity(a: ClauseView, b: ClauseView): Conflict | null {
  if (a.negated === b.negated) return null;
  // "never run npm install" and "run pnpm install" are two statements, not one negated.
  for (const ta of a.tools) for (const tb of b.tools) if (ta !== tb && sameFamily(ta, tb)) return null;
  const anchor = shared(a.content, b.content);
  const union = new Set([...a.content, ...b.content]).size;
  if (anchor.length >= 3 && anchor.length >= union * 0.65) return { kind: 'polarity', detail: `"${anchor.slice(0, 4).join(' ')}" affirmed in one, negated in the other` };
  return null;
}

/** Different values for one key in two clauses that otherwise say the same thing. */
function value(a: ClauseView, b: ClauseView): Conflict | null {
  for (const [key, va] of a.values) {
    const vb = b.values.get(key);
    if (vb === undefined || vb === va) continue;
    const word = key.replace(/#after$/, '');
    const anchor = shared(a.content, b.content, new Set([word]));
    const union = new Set([...a.content, ...b.content]).size;
    if (anchor.length >= 2 && anchor.length + 1 >= union * 0.4) return { kind: 'value', detail: `${word}: ${va} vs ${vb}` };
  }
  return null;
}

function replacement(a: SentenceView, b: SentenceView): Conflict | null {
  // One side rejects a tool (in any of its clauses) that the other uses in a positive clause.
  for (const [rejecter, user] of [[a, b], [b, a]] as const) {
    for (const rc of rejecter.clauses) for (const old of rc.old) {
      for (const uc of user.clauses) {
        if (uc.negated || !uc.used.has(old) || uc.old.has(old)) continue;
        if (shared(rejecter.content, user.content, new Set([old])).length >= 1) return { kind: 'replacement', detail: `${old} is rejected in one and used in the other` };
      }
    }
  }
  // Each side uses a different tool of one family, positively, for the same job.
  for (const ca of a.clauses) for (const cb of b.clauses) {
    if (ca.negated || cb.negated || ca.old.size || cb.old.size) continue;
    for (const ta of ca.used) for (const tb of cb.used) {
      if (ta === tb || !sameFamily(ta, tb) || ca.tools.has(tb) || cb.tools.has(ta)) continue;
      if (shared(ca.content, cb.content, new Set([ta, tb])).length >= 1) return { kind: 'replacement', detail: `${ta} vs ${tb}` };
    }
  }
  return null;
}

/** Counters a run reports: how much pairwise work the conflict engine did (issue 14's counting test). */
export interface ConflictStats { candidatePairs: number; sentenceComparisons: number }
export const newConflictStats = (): ConflictStats => ({ candidatePairs: 0, sentenceComparisons: 0 });

/** A note's sentences with their views, computed once per note (never per pair). */
export interface NoteClauses { readonly sentences: readonly { readonly s: Sentence; readonly v: SentenceView }[] }

export function noteClauses(note: Pick<VaultFile, 'text' | 'bodyOffset' | 'codeRanges' | 'position'>): NoteClauses {
  return { sentences: sentences(note).map((s) => ({ s, v: viewSentence(s.text) })) };
}

export interface FoundConflict { readonly conflict: Conflict; readonly a: Sentence; readonly b: Sentence }

/** Up to `limit` conflicting sentence pairs between two notes. */
export function noteConflicts(a: NoteClauses, b: NoteClauses, limit = 3, stats?: ConflictStats): FoundConflict[] {
  const found: FoundConflict[] = [];
  if (stats) stats.candidatePairs++;
  for (const x of a.sentences) {
    for (const y of b.sentences) {
      if (stats) stats.sentenceComparisons++;
      const c = sentenceConflict(x.v, y.v);
      if (c) { found.push({ conflict: c, a: x.s, b: y.s }); if (found.length >= limit) return found; }
    }
  }
  return found;
}
