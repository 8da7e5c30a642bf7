/**
 * Front matter: split the block ourselves (so positions are exact and no non-YAML engine can
 * ever run) and parse it with js-yaml 4 (safe schema, no code types; aliases capped here because
 * js-yaml has no limit of its own). js-yaml, not the `yaml` package: 9x faster on real front matter
 * (BENCHMARKS.md), and check parses every note on every commit.
 */
import { load, CORE_SCHEMA, YAMLException } from 'js-yaml';
import { flatYaml } from './yaml-flat.js';

export interface FrontmatterError {
  readonly message: string;
  /** 0-based offset into the file text. */
  readonly offset: number;
}

export interface CutValue {
  readonly key: string;
  readonly kept: string;
  readonly cut: string;
  readonly offset: number;
}

export interface Frontmatter {
  /** Offset of the first character of the YAML (after the opening fence line). */
  readonly yamlOffset: number;
  readonly yaml: string;
  /** Offset where the markdown body starts (after the closing fence line). */
  readonly bodyOffset: number;
  /** Language written after the opening fence (`---js`), '' for plain YAML. */
  readonly language: string;
  readonly data: Readonly<Record<string, unknown>> | null;
  readonly error: FrontmatterError | null;
  /** Plain values that YAML silently cut at ` #` (the rest became a comment). */
  readonly cutValues: readonly CutValue[];
}

/** js-yaml shares aliased nodes instead of copying them; whoever expands them pays this. */
export const MAX_EXPANDED_NODES = 10_000;
const OPEN = /^---([A-Za-z]*)[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/gm;
const ALIAS = /(?:^|[\s,[{:-])\*[^\s,\]}]+/;

export function splitFrontmatter(text: string): Frontmatter | null {
  const open = OPEN.exec(text.slice(0, 64));
  if (!open) return null;
  const yamlOffset = open[0].length;
  const language = open[1] ?? '';
  CLOSE.lastIndex = yamlOffset;
  const close = CLOSE.exec(text);
  if (!close) {
    return {
      yamlOffset,
      yaml: '',
      bodyOffset: 0,
      language,
      data: null,
      cutValues: [],
      error: { message: 'front matter is not closed: no line `---` after the opening `---`', offset: 0 },
    };
  }
  const yaml = text.slice(yamlOffset, close.index);
  const afterClose = close.index + close[0].length;
  const bodyOffset = text[afterClose] === '\n' ? afterClose + 1 : afterClose;
  if (language !== '' && language.toLowerCase() !== 'yaml') {
    return {
      yamlOffset,
      yaml,
      bodyOffset,
      language,
      data: null,
      cutValues: [],
      error: { message: `front matter in '${language}' is not YAML; memlint never evaluates it`, offset: 0 },
    };
  }
  return { yamlOffset, yaml, bodyOffset, language, ...parseYaml(yaml, yamlOffset) };
}

function lineColumnOffset(yaml: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 0; l < line && offset !== -1; l++) offset = yaml.indexOf('\n', offset) + 1 || -1;
  return offset === -1 ? 0 : offset + column;
}

function parseYaml(yaml: string, base: number): Pick<Frontmatter, 'data' | 'error' | 'cutValues'> {
  let data: unknown;
  try {
    data = flatYaml(yaml) ?? load(yaml, { schema: CORE_SCHEMA, json: false });
  } catch (e) {
    if (e instanceof YAMLException) {
      const mark = e.mark as { line?: number; column?: number } | undefined;
      const at = mark && typeof mark.line === 'number' ? lineColumnOffset(yaml, mark.line, mark.column ?? 0) : 0;
      return {
        data: null,
        cutValues: [],
        error: { message: cleanYamlMessage(e.reason || e.message), offset: base + Math.min(at, yaml.length) },
      };
    }
    return { data: null, cutValues: [], error: { message: (e as Error).message.split('\n')[0]!, offset: base } };
  }
  if (yaml.includes('*') && ALIAS.test(yaml) && expandedSizeExceeds(data, MAX_EXPANDED_NODES)) {
    return {
      data: null,
      cutValues: [],
      error: {
        message: `YAML aliases expand to more than ${MAX_EXPANDED_NODES} values: refused as a resource-exhaustion attack (an "alias bomb")`,
        offset: base,
      },
    };
  }
  if (data === null || data === undefined) return { data: {}, error: null, cutValues: [] };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return {
      data: null,
      error: { message: 'front matter is not a mapping of keys to values', offset: base },
      cutValues: [],
    };
  }
  const record = data as Record<string, unknown>;
  return { data: record, error: null, cutValues: yaml.includes(' #') ? findCutValues(record, yaml, base) : [] };
}

/** Counts values as a full expansion would, stopping as soon as the budget is spent. */
function expandedSizeExceeds(root: unknown, budget: number): boolean {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (++count > budget) return true;
    if (v && typeof v === 'object') {
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    }
  }
  return false;
}

function cleanYamlMessage(reason: string): string {
  if (
    /bad indentation of a mapping entry|incomplete explicit mapping pair|a multiline key may not be an implicit key/.test(
      reason,
    )
  ) {
    return `${reason} (a plain value containing ': ' must be quoted)`;
  }
  return reason;
}

const CUT_LINE = /^([ \t]*)([^\s:#][^:#]*?):[ \t]+([^\s"'|>&*![{#][^\n]*?)[ \t]+#([^\n]*)$/gm;

/** A `key: plain value #rest` line whose parsed value is exactly the part before ` #`. */
function findCutValues(data: Record<string, unknown>, yaml: string, base: number): CutValue[] {
  const out: CutValue[] = [];
  let parent: string | null = null;
  const lines = yaml.split('\n');
  let offset = 0;
  for (const line of lines) {
    const top = /^([^\s:#][^:]*):/.exec(line);
    if (top) parent = top[1]!.trim();
    CUT_LINE.lastIndex = 0;
    const m = CUT_LINE.exec(line.replace(/\r$/, ''));
    if (m) {
      const key = m[2]!.trim();
      const kept = m[3]!;
      const nested =
        m[1]!.length > 0 && parent !== null && typeof data[parent] === 'object' && data[parent] !== null
          ? (data[parent] as Record<string, unknown>)
          : null;
      const value = nested ? nested[key] : data[key];
      if (typeof value === 'string' && value === kept) {
        out.push({
          key: nested ? `${parent}.${key}` : key,
          kept,
          cut: m[4]!.trim(),
          offset: base + offset + m[0].indexOf(kept, m[1]!.length + m[2]!.length + 1),
        });
      }
    }
    offset += line.length + 1;
  }
  return out;
}

/** What `check --cache` keeps of a front matter block: offsets and findings, not the parsed data. */
export interface FrontmatterRecord {
  readonly yamlOffset: number;
  readonly yamlLength: number;
  readonly bodyOffset: number;
  readonly language: string;
  readonly hasData: boolean;
  readonly error: FrontmatterError | null;
  readonly cutValues: readonly CutValue[];
}

/** The record of a parsed block (`check --cache` rows, the file-rule worker's files). */
export function frontmatterRecord(fm: Frontmatter): FrontmatterRecord {
  return {
    yamlOffset: fm.yamlOffset,
    yamlLength: fm.yaml.length,
    bodyOffset: fm.bodyOffset,
    language: fm.language,
    hasData: fm.data !== null,
    error: fm.error,
    cutValues: fm.cutValues,
  };
}
