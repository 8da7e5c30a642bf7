/**
 * Which of several sets of ASCII literals occur in a text, in one pass (an Aho–Corasick automaton
 * over UTF-16 code units; a unit ≥ 128 matches no literal and restarts it). The security rules'
 * keyword prefilters use it: one alternation regex of dozens of literals scans at ~130 MB/s in V8,
 * this at ~350 MB/s, whatever the number of literals.
 */

const ALPHABET = 128;

export class KeywordSets {
  /**
   * delta[(state << shift) + cls[unit]]: the next state, shifted, bitwise negated (`~`) when literals
   * end there (so the scan tests one sign per unit). A unit's class is its own for a character some
   * literal holds (with `foldCase` an upper-case letter shares its lower-case one's), 0 for every other
   * unit (which leads back to the root from any state): the table stays small enough for the cache.
   */
  private readonly delta: Int32Array;
  private readonly cls: Uint8Array;
  private readonly shift: number;
  /** Bit i: a literal of set i ends at this state (or at a state its failure chain reaches). */
  private readonly out: Int32Array;
  /** Per state, the (set, length) of every literal ending there (`starts`), as flat pairs; null for none. */
  private readonly ends: (number[] | null)[];

  /** At most 31 sets, each of non-empty ASCII literals. `foldCase`: ASCII letters match either case. */
  constructor(sets: readonly (readonly string[])[], foldCase = false) {
    if (sets.length > 31) throw new Error('KeywordSets: at most 31 sets');
    const next: Int32Array[] = [new Int32Array(ALPHABET).fill(-1)];
    const out: number[] = [0];
    const ends: (number[] | null)[] = [null];
    sets.forEach((literals, bit) => {
      for (const raw of literals) {
        const lit = foldCase ? raw.toLowerCase() : raw;
        if (lit.length === 0 || /[^\x00-\x7f]/.test(lit))
          throw new Error(`KeywordSets: not a non-empty ASCII literal: ${JSON.stringify(raw)}`);
        let s = 0;
        for (let i = 0; i < lit.length; i++) {
          const c = lit.charCodeAt(i);
          if (next[s]![c] === -1) {
            next[s]![c] = next.length;
            next.push(new Int32Array(ALPHABET).fill(-1));
            out.push(0);
            ends.push(null);
          }
          s = next[s]![c]!;
        }
        out[s]! |= 1 << bit;
        (ends[s] ??= []).push(bit, lit.length);
      }
    });
    // Breadth first: failure links, and missing transitions filled from the failure state's.
    const fail = new Int32Array(next.length);
    const queue: number[] = [];
    for (let c = 0; c < ALPHABET; c++) {
      const t = next[0]![c]!;
      if (t === -1) next[0]![c] = 0;
      else queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const r = queue[q]!;
      out[r]! |= out[fail[r]!]!;
      const inherited = ends[fail[r]!];
      if (inherited) ends[r] = [...(ends[r] ?? []), ...inherited];
      for (let c = 0; c < ALPHABET; c++) {
        const u = next[r]![c]!;
        if (u === -1) next[r]![c] = next[fail[r]!]![c]!;
        else {
          fail[u] = next[fail[r]!]![c]!;
          queue.push(u);
        }
      }
    }
    const cls = new Uint8Array(ALPHABET);
    const reps = [0];
    for (const literals of sets)
      for (const raw of literals)
        for (const ch of foldCase ? raw.toLowerCase() : raw) {
          const c = ch.charCodeAt(0);
          if (cls[c] === 0) cls[c] = reps.push(c) - 1;
        }
    if (foldCase) for (let c = 65; c <= 90; c++) cls[c] = cls[c + 32]!;
    let shift = 0;
    while (1 << shift < reps.length) shift++;
    this.delta = new Int32Array(next.length << shift);
    next.forEach((row, s) =>
      reps.forEach((c, k) => {
        const u = k === 0 ? 0 : row[c]!;
        this.delta[(s << shift) + k] = out[u] ? ~(u << shift) : u << shift;
      }),
    );
    this.cls = cls;
    this.shift = shift;
    this.out = Int32Array.from(out);
    this.ends = ends;
  }

  /** Bit i set when some literal of set i occurs in `text`. */
  present(text: string): number {
    // Its own loop, not `scan` with no starts: V8 would compile `scan` for whichever use it meets first.
    const { delta, out, cls, shift } = this;
    let s = 0;
    let found = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= ALPHABET) s = 0;
      else if ((s = delta[s + cls[c]!]!) < 0) {
        s = ~s;
        found |= out[s >> shift]!;
      }
    }
    return found;
  }

  /**
   * `present`, and in the same pass where each literal of the sets in `mask` starts: pushed onto
   * `starts` as pairs (index of its first unit, set), in the order the literals end. Past `limit`
   * pairs no more are pushed and `starts` ends with the pair (-1, -1): the list is incomplete.
   */
  scan(text: string, mask: number, starts: number[], limit = Infinity): number {
    const { delta, out, ends, cls, shift } = this;
    let s = 0;
    let found = 0;
    let room = limit * 2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= ALPHABET) {
        s = 0;
        continue;
      }
      s = delta[s + cls[c]!]!;
      if (s >= 0) continue;
      s = ~s;
      const state = s >> shift;
      const o = out[state]!;
      found |= o;
      if ((o & mask) === 0) continue;
      const e = ends[state]!;
      for (let k = 0; k < e.length; k += 2)
        if (((1 << e[k]!) & mask) !== 0) {
          starts.push(i - e[k + 1]! + 1, e[k]!);
          room -= 2;
        }
      if (room <= 0) {
        starts.push(-1, -1);
        mask = 0;
      }
    }
    return found;
  }
}

/** Whether `scan` stopped recording starts (its `limit`). */
export const startsCut = (pairs: readonly number[]): boolean => pairs.length > 0 && pairs[pairs.length - 1] === -1;

/** The starts of set `bit` in `scan`'s pairs, ascending, each index once. */
export function startsOf(pairs: readonly number[], bit: number): number[] {
  const at: number[] = [];
  let sorted = true;
  for (let k = 0; k < pairs.length; k += 2) {
    if (pairs[k + 1] !== bit) continue;
    const start = pairs[k]!;
    if (at.length && start <= at[at.length - 1]!) {
      if (start === at[at.length - 1]) continue;
      sorted = false;
    }
    at.push(start);
  }
  if (sorted) return at;
  at.sort((a, b) => a - b);
  return at.filter((v, k) => k === 0 || v !== at[k - 1]);
}

/**
 * The literals a regex source matches, when it is only literals: alternatives (`|`), escaped
 * punctuation (`\.`), classes of plain characters (`[pousr]`), non-nested groups of such
 * alternatives (`(?:live|test)`) and an optional single character (`s?`). Null for anything else
 * (`\b`, `\d`, ranges, repetition, anchors) or more than `limit` literals.
 */
export function literalsOf(source: string, limit = 256): string[] | null {
  const out: string[] = [];
  for (const alt of splitTop(source)) {
    if (alt === null) return null;
    let partial = [''];
    let i = 0;
    while (i < alt.length) {
      let options: string[];
      const ch = alt[i]!;
      if (ch === '\\') {
        const e = alt[i + 1];
        if (e === undefined || /[A-Za-z0-9]/.test(e)) return null;
        options = [e];
        i += 2;
      } else if (ch === '[') {
        const end = alt.indexOf(']', i + 1);
        if (end < 0) return null;
        const body = alt.slice(i + 1, end);
        if (body === '' || /[\\^\-\]]/.test(body)) return null;
        options = [...new Set(body)];
        i = end + 1;
      } else if (alt.startsWith('(?:', i)) {
        const end = alt.indexOf(')', i);
        if (end < 0) return null;
        const inner = literalsOf(alt.slice(i + 3, end), limit);
        if (inner === null || inner.length === 0) return null;
        options = inner;
        i = end + 1;
      } else if (/[.^$*+?{}()|]/.test(ch)) {
        return null;
      } else {
        options = [ch];
        i += 1;
      }
      if (alt[i] === '?') {
        if (options.length !== 1 || options[0]!.length !== 1) return null;
        options = [options[0]!, ''];
        i += 1;
      }
      if (alt[i] === '*' || alt[i] === '+' || alt[i] === '{') return null;
      partial = partial.flatMap((p) => options.map((o) => p + o));
      if (partial.length > limit) return null;
    }
    if (partial.some((p) => p === '')) return null;
    out.push(...partial);
    if (out.length > limit) return null;
  }
  return out;
}

/** Top-level alternatives of a regex source (a group's `|` stays inside it); null for an unbalanced one. */
function splitTop(source: string): (string | null)[] {
  const parts: (string | null)[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return depth === 0 && !inClass ? parts : [null];
}

/**
 * Literals one of which every match of a regex starts with, at the match's own index: for each
 * top-level alternative, the literal text it must begin with once its leading zero-width assertions
 * (`\b`, `^`, lookarounds) are passed — characters, escaped punctuation, `\n` / `\t`, small classes,
 * groups of such alternatives; an optional part (`?`, `*`, `{0,…}`) or anything else (`\s`, `.`,
 * ranges) ends it, a `+` / `{n,…}` part counts once and ends it. Null when some alternative could
 * start with something else (its literal would be empty), with `u` / `v` flags, or past `limit`.
 * With the `i` flag the literals are lower-cased: search them case-folded. A superset of the true
 * starts is all it promises (sound, not tight): `scanPatterns` runs the regex only at these starts.
 */
export function leadingLiterals(re: RegExp, limit = 64): string[] | null {
  if (/[uv]/.test(re.flags)) return null;
  const alts = leadAlternation(re.source, 0, re.source.length);
  if (!alts || alts.lits.some((l) => l === '') || alts.lits.length > limit) return null;
  const lits = [...new Set(/i/.test(re.flags) ? alts.lits.map((l) => l.toLowerCase()) : alts.lits)];
  return lits.some((l) => /[^\x00-\x7f]/.test(l)) ? null : lits;
}

interface Lead {
  /** Each possible beginning of a match (the literal text it must start with). */
  readonly lits: string[];
  /** Whether each beginning is the whole of what the part matches (the sequence can continue after it). */
  readonly complete: boolean;
}

const LEAD_LIMIT = 256;

/** The end (exclusive) of the group or class opened at `open`, or -1. */
function closing(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') {
        inClass = false;
        if (depth === 0) return i + 1;
      }
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

function leadAlternation(src: string, from: number, to: number): Lead | null {
  const lits: string[] = [];
  let complete = true;
  let start = from;
  for (let i = from; i <= to; i++) {
    const ch = src[i];
    if (i < to && ch === '\\') {
      i++;
      continue;
    }
    if (i < to && (ch === '(' || ch === '[')) {
      const end = closing(src, i);
      if (end < 0 || end > to) return null;
      i = end - 1;
      continue;
    }
    if (i === to || ch === '|') {
      const seq = leadSequence(src, start, i);
      if (!seq) return null;
      lits.push(...seq.lits);
      complete &&= seq.complete;
      if (lits.length > LEAD_LIMIT) return null;
      start = i + 1;
    }
  }
  return { lits, complete };
}

/** The quantifier at `at`: [minimum repetitions, its length], or [1, 0] for none. */
function quantifier(src: string, at: number): [number, number] {
  const q = /^(?:[?*+]|\{(\d+)(?:,\d*)?\})\??/.exec(src.slice(at, at + 24));
  if (!q) return [1, 0];
  const min = q[0][0] === '?' || q[0][0] === '*' ? 0 : q[0][0] === '+' ? 1 : Number(q[1]);
  return [min, q[0].length];
}

function leadSequence(src: string, from: number, to: number): Lead | null {
  let partial = [''];
  let i = from;
  const stop = (): Lead => ({ lits: partial, complete: false });
  while (i < to) {
    const ch = src[i]!;
    let options: string[] | null;
    let next: number;
    let whole = true;
    if (ch === '^' || ch === '$') {
      i++;
      continue;
    }
    if (ch === '\\' && (src[i + 1] === 'b' || src[i + 1] === 'B')) {
      i += 2;
      continue;
    }
    if (ch === '(') {
      const end = closing(src, i);
      if (end < 0 || end > to) return null;
      if (/^\(\?<?[=!]/.test(src.slice(i, i + 4))) {
        // A lookaround consumes nothing (quantified or not).
        i = end + quantifier(src, end)[1];
        continue;
      }
      const head = /^\(\?(?::|<[A-Za-z_$][\w$]*>)/.exec(src.slice(i, end));
      if (src[i + 1] === '?' && !head) return stop();
      const inner = leadAlternation(src, i + (head ? head[0].length : 1), end - 1);
      if (!inner) return stop();
      options = inner.lits;
      whole = inner.complete;
      next = end;
    } else if (ch === '[') {
      const end = closing(src, i);
      if (end < 0 || end > to) return null;
      const body = src.slice(i + 1, end - 1);
      options = body === '' || /[\\^\-\]]/.test(body) ? null : [...new Set(body)];
      next = end;
    } else if (ch === '\\') {
      const e = src[i + 1];
      if (e === undefined) return null;
      options = e === 'n' ? ['\n'] : e === 't' ? ['\t'] : e === 'r' ? ['\r'] : /[A-Za-z0-9]/.test(e) ? null : [e];
      next = i + 2;
    } else if (ch === '.' || ch === '|' || ch === ')' || ch === '?' || ch === '*' || ch === '+' || ch === '{') {
      options = null;
      next = i + 1;
    } else {
      options = [ch];
      next = i + 1;
    }
    if (!options) return stop();
    const [min, qlen] = quantifier(src, next);
    if (min === 0) return stop();
    partial = partial.flatMap((p) => options.map((o) => p + o));
    if (partial.length > LEAD_LIMIT) return null;
    if (qlen > 0 || !whole) return stop();
    i = next;
  }
  return { lits: partial, complete: true };
}
