/** What a note refers to in the outside world, extracted from its text (code included). */
import { isSpace } from '../similarity/claims.js';

export type ReferenceKind = 'path' | 'script' | 'make-target' | 'command' | 'module' | 'python-module';

export interface Reference {
  readonly kind: ReferenceKind;
  readonly value: string;
  /** For scripts: the package manager. */
  readonly via?: string;
  readonly offset: number;
}

const SHELL_WORDS = new Set(
  (
    'cd export echo if then else elif fi for do done while until case esac source alias unset set eval exec ' +
    'return exit true false test read printf local function sudo time env nohup xargs command type which'
  ).split(' '),
);
const COMMAND_FENCES = /^(?:bash|sh|shell|console|zsh|fish|terminal|cmd)?$/i;

/** URLs (skipped as such), and anything with a slash that could be a path, globs and placeholders included. */
export const PATH_TOKEN =
  /(?<![\w@.:/*-])(?:[a-z][a-z0-9+.-]*:\/\/[^\s`'")\]]+|(?:~\/|\.{1,2}\/|\/)?[\w@+*?<{$-][\w@.+*?<>{}$-]*(?:\/[\w@.+*?<>{}$-]+)+\/?)/gi;
const SCRIPT = /\b(npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)([\w:.@/-]+)|\bnpm\s+(test|start)\b/g;
const MAKE = /\bmake\s+(?:-[A-Za-z]\s+\S+\s+)*([A-Za-z_][\w.-]*)/g;
const PY_MODULE = /\bpython3?\s+-m\s+([A-Za-z_][\w.]*)/g;
const IMPORT = /\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * `body.matchAll(PATH_TOKEN)`, as [index, text] pairs, without trying the regex at every place of the body. Every
 * match holds a `/` (both alternatives do) and no white space (no class of the regex admits it), so a match lies
 * in one white-space-separated word that holds a `/`; no place of a word without one starts a match (`isSpace` is `\s`). The regex
 * is started at the first such word at or past the last match's end: it finds the next match itself (its
 * look-behind reads the body before where it starts, as before). Same matches (test/references.test.ts).
 */
export function pathTokens(body: string): [number, string][] {
  const out: [number, string][] = [];
  for (let p = 0; p < body.length;) {
    const slash = body.indexOf('/', p);
    if (slash < 0) break;
    let start = slash;
    while (start > p && !isSpace(body.charCodeAt(start - 1))) start--;
    PATH_TOKEN.lastIndex = start;
    const m = PATH_TOKEN.exec(body);
    if (!m) break;
    out.push([m.index, m[0]]);
    p = m.index + m[0].length;
  }
  PATH_TOKEN.lastIndex = 0;
  return out;
}

export function extractReferences(body: string, base: number): Reference[] {
  const out: Reference[] = [];
  for (const [at, value] of pathTokens(body)) out.push({ kind: 'path', value, offset: base + at });
  for (const m of body.matchAll(SCRIPT)) {
    if (m[3]) out.push({ kind: 'script', value: m[3], via: 'npm', offset: base + m.index });
    else out.push({ kind: 'script', value: m[2]!, via: m[1]!, offset: base + m.index });
  }
  for (const m of body.matchAll(MAKE)) out.push({ kind: 'make-target', value: m[1]!, offset: base + m.index });
  for (const m of body.matchAll(PY_MODULE)) out.push({ kind: 'python-module', value: m[1]!, offset: base + m.index });
  for (const m of body.matchAll(IMPORT)) out.push({ kind: 'module', value: (m[1] ?? m[2])!, offset: base + m.index });
  for (const c of commandLines(body)) {
    const words = c.text.split(/\s+/).filter(Boolean);
    let k = 0;
    while (k < words.length && /^\w+=/.test(words[k]!)) k++;
    const word = words[k];
    if (!word || !/^[a-z][\w.+-]*$/.test(word) || SHELL_WORDS.has(word)) continue;
    out.push({ kind: 'command', value: word, offset: base + c.offset });
  }
  return out;
}

/** Lines of shell fences and inline code spans that read as a command (`pnpm install`). */
function commandLines(body: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  const fence = /^([ \t]*)(`{3,}|~{3,})([^\n`]*)\n([\s\S]*?)^[ \t]*\2[ \t]*$/gm;
  for (const m of body.matchAll(fence)) {
    if (!COMMAND_FENCES.test(m[3]!.trim().split(/\s/)[0] ?? '')) continue;
    let off = m.index + m[0].indexOf('\n') + 1;
    for (const line of m[4]!.split('\n')) {
      const text = line.replace(/^\s*[$#>]\s+/, '').trim();
      if (text && !text.startsWith('#')) out.push({ text, offset: off });
      off += line.length + 1;
    }
  }
  for (const m of body.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) {
    const text = m[1]!.trim();
    if (/^[a-z][\w.+-]*\s+[-\w./@:"'=]/.test(text)) out.push({ text, offset: m.index });
  }
  return out;
}
