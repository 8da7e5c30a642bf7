/**
 * Whether two sentences about one subject disagree: opposite polarity, different values for the
 * same key, or a replaced tool. Anchored on shared content words so that firm English ("never",
 * "always") does not fire across subjects.
 */
import { NEGATIONS, STOPWORDS, tokens } from './text.js';

export type ConflictKind = 'polarity' | 'value' | 'replacement';

export interface Conflict {
  readonly kind: ConflictKind;
  readonly detail: string;
}

/** Interchangeable tools: two notes each using a different one for the same job disagree. */
export const TOOL_FAMILIES: readonly (readonly string[])[] = [
  ['jest', 'vitest', 'mocha', 'jasmine', 'ava', 'pytest', 'unittest', 'nose'],
  ['npm', 'pnpm', 'yarn', 'bun'],
  ['webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'turbopack', 'rspack'],
  ['eslint', 'biome', 'tslint', 'oxlint', 'standard'],
  ['prettier', 'dprint'],
  ['postgres', 'postgresql', 'mysql', 'mariadb', 'sqlite', 'mongodb', 'dynamodb'],
  ['pip', 'poetry', 'uv', 'pipenv', 'conda', 'pdm'],
  ['docker', 'podman'],
  ['react', 'vue', 'svelte', 'angular', 'solid', 'preact'],
  ['express', 'fastify', 'koa', 'hono', 'nestjs'],
  ['black', 'ruff', 'autopep8', 'yapf'],
  ['mypy', 'pyright', 'pyre'],
  ['tabs', 'spaces'],
  ['rebase', 'merge', 'squash'],
];
const FAMILY_OF = new Map<string, number>();
TOOL_FAMILIES.forEach((f, i) => f.forEach((t) => FAMILY_OF.set(t, i)));

const DATE = /^\d{4}-\d{2}(-\d{2})?$|^\d{1,2}[/:]\d{2}/;
const NUMBER = /^v?\d+(?:[.,]\d+)*$/;
const REPLACED = /\b(?:replaced|switched from|migrated from|moved from|instead of|no longer (?:use|using)|dropped)\b/;

export interface ClauseView {
  readonly text: string;
  readonly tokens: readonly string[];
  readonly content: ReadonlySet<string>;
  readonly negated: boolean;
  readonly values: ReadonlyMap<string, string>;
  readonly tools: ReadonlySet<string>;
  readonly replaces: boolean;
}

export interface SentenceView extends ClauseView {
  /** Negation is judged per clause: "use pnpm; never run npm install" negates only npm. */
  readonly clauses: readonly ClauseView[];
}

const CLAUSE_SPLIT = /;|:\s|,\s*(?=(?:but|and|or|never|not|don't|do not|always)\b)|\s+but\s+|\s+(?:and|or)\s+(?=(?:never|not|don't|do not)\b)/i;

export function viewSentence(text: string): SentenceView {
  const whole = viewClause(text);
  const parts = text.split(CLAUSE_SPLIT).map((c) => c.trim()).filter((c) => c.length > 2);
  return { ...whole, clauses: parts.length > 1 ? parts.map(viewClause) : [whole] };
}

function viewClause(text: string): ClauseView {
  const toks = tokens(text);
  const content = new Set<string>();
  const values = new Map<string, string>();
  const tools = new Set<string>();
  let negated = false;
  const lower = text.toLowerCase();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (NEGATIONS.has(t) || /n't$/.test(t)) { negated = true; continue; }
    if (FAMILY_OF.has(t)) tools.add(t);
    if (NUMBER.test(t) && !DATE.test(t)) {
      const prev = previousWord(toks, i);
      const next = toks[i + 1];
      if (prev) values.set(prev, t.replace(/^v/, ''));
      if (next && !STOPWORDS.has(next) && !NUMBER.test(next)) values.set(`${next}#after`, t.replace(/^v/, ''));
      continue;
    }
    if (!STOPWORDS.has(t) && t.length > 1) content.add(t);
  }
  if (/\bnever\b|\bdo not\b|\bdon't\b/.test(lower)) negated = true;
  return { text, tokens: toks, content, negated, values, tools, replaces: REPLACED.test(lower) };
}

function previousWord(toks: readonly string[], i: number): string | null {
  for (let k = i - 1; k >= 0 && k >= i - 2; k--) {
    const t = toks[k]!;
    if (NUMBER.test(t)) return null;
    if (!STOPWORDS.has(t) && !NEGATIONS.has(t)) return t;
  }
  return null;
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>, except: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const x of a) if (b.has(x) && !except.has(x)) out.push(x);
  return out;
}

export function sentenceConflict(a: SentenceView, b: SentenceView): Conflict | null {
  const valueOrTool = valueOrReplacement(a, b);
  if (valueOrTool) return valueOrTool;
  for (const ca of a.clauses) for (const cb of b.clauses) {
    const c = polarity(ca, cb);
    if (c) return c;
  }
  return null;
}

function polarity(a: ClauseView, b: ClauseView): Conflict | null {
  if (a.negated === b.negated) return null;
  // "never run npm install" and "run pnpm install" are two statements, not one negated.
  for (const ta of a.tools) for (const tb of b.tools) if (ta !== tb && FAMILY_OF.get(ta) === FAMILY_OF.get(tb)) return null;
  const anchor = shared(a.content, b.content);
  const smaller = Math.min(a.content.size, b.content.size);
  if (anchor.length >= 2 && anchor.length >= smaller * 0.6) return { kind: 'polarity', detail: `"${anchor.slice(0, 4).join(' ')}" affirmed in one, negated in the other` };
  return null;
}

function valueOrReplacement(a: ClauseView, b: ClauseView): Conflict | null {
  // Different values for one key, with at least one more shared word to anchor the subject.
  for (const [key, va] of a.values) {
    const vb = b.values.get(key);
    if (vb === undefined || vb === va) continue;
    const anchor = shared(a.content, b.content, new Set([key.replace(/#after$/, '')]));
    if (anchor.length >= 1) return { kind: 'value', detail: `${key.replace(/#after$/, '')}: ${va} vs ${vb}` };
  }
  // One tool replaced by another of the same family, both stated positively.
  for (const ta of a.tools) {
    for (const tb of b.tools) {
      if (ta === tb || FAMILY_OF.get(ta) !== FAMILY_OF.get(tb)) continue;
      if (a.tools.has(tb) || b.tools.has(ta)) {
        // One sentence names both: only a conflict when it says one replaced the other.
        const replacer = a.tools.has(tb) ? a : b;
        if (!replacer.replaces) continue;
      } else if (a.negated || b.negated) {
        continue;
      }
      if (shared(a.content, b.content, new Set([ta, tb])).length >= 1) return { kind: 'replacement', detail: `${ta} vs ${tb}` };
    }
  }
  return null;
}
