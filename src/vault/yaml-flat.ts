/**
 * The front matter most notes have, parsed without js-yaml: `key: plain value` lines, and keys with no value
 * followed by one level of `  key: plain value` lines (the `metadata:` block). Scalars resolve through
 * js-yaml's own CORE_SCHEMA implicit types (null, bool, int, float), so a value means what js-yaml makes of
 * it. Anything else (a quote, a list, a comment, a block scalar, a continuation line, a tab, a duplicate key,
 * a character js-yaml refuses…) returns undefined and the caller parses with js-yaml: this is a fast path,
 * never a second meaning. test/yaml-flat.test.ts compares it with js-yaml on the corpus and on random blocks.
 * Why: js-yaml is ~30 µs a note, ~15% of `check` on the old bench shape at 10k (BENCHMARKS.md, session 7).
 */
import { CORE_SCHEMA, type Type } from 'js-yaml';

const IMPLICIT = (CORE_SCHEMA as unknown as { compiledImplicit: readonly Type[] }).compiledImplicit;
/** A key js-yaml reads as the same plain string (no indicator, space, quote or colon). */
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** js-yaml warns on these (its PATTERN_NON_PRINTABLE) and strips a leading BOM: such blocks are left to it. */
const NON_PRINTABLE =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** A first character that makes a plain scalar something else (an indicator), or starts nothing plain. */
const BAD_FIRST = /^[\s\-?:,[\]{}#&*!|>'"%@`]/;

function scalar(s: string): unknown {
  for (const t of IMPLICIT) if (t.resolve(s)) return t.construct(s);
  return s;
}

/** A value js-yaml reads as this one plain scalar on one line: no indicator, comment, colon-space, tab or trailing space. */
function plain(v: string): boolean {
  return (
    !BAD_FIRST.test(v) &&
    !v.includes(': ') &&
    !v.includes(' #') &&
    !v.includes('\t') &&
    !v.endsWith(':') &&
    !v.endsWith(' ') &&
    !v.includes('\r')
  );
}

/** A key that is a plain string to js-yaml too (not `true`, `null`, `1`…: those would be resolved, then String()ed). */
function keyOk(k: string): boolean {
  return KEY.test(k) && k !== '__proto__' && scalar(k) === k;
}

export function flatYaml(yaml: string): Record<string, unknown> | undefined {
  if (yaml === '' || NON_PRINTABLE.test(yaml)) return undefined;
  const lines = yaml.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: Record<string, unknown> = {};
  let open: { key: string; map: Record<string, unknown> | null; indent: number } | null = null;
  for (const line of lines) {
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    const colon = line.indexOf(':');
    if (colon <= indent) return undefined;
    const key = line.slice(indent, colon);
    const rest = line.slice(colon + 1);
    if (rest !== '' && !(rest.startsWith(' ') && rest.length > 1)) return undefined;
    const value = rest.slice(1);
    if (!keyOk(key) || (rest !== '' && !plain(value))) return undefined;
    if (indent > 0) {
      // A nested line: only under a key that had no value, at the one indent its block started with.
      if (open === null) return undefined;
      if (open.map === null) {
        open.map = {};
        open.indent = indent;
        out[open.key] = open.map;
      } else if (indent !== open.indent) return undefined;
      if (rest === '' || Object.prototype.hasOwnProperty.call(open.map, key)) return undefined;
      open.map[key] = scalar(value);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(out, key)) return undefined;
    if (rest === '') {
      out[key] = null;
      open = { key, map: null, indent: 0 };
    } else {
      out[key] = scalar(value);
      open = null;
    }
  }
  return out;
}
