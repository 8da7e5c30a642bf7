/**
 * Front matter: split the block ourselves (so positions are exact and no non-YAML engine can
 * ever run) and parse it with the `yaml` package, aliases capped.
 */
import { parseDocument, isMap, isScalar, isPair, Scalar, type Document } from 'yaml';

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

const OPEN = /^---([A-Za-z]*)[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/gm;

export function hasFrontmatterFence(text: string): boolean {
  return text.startsWith('---') && OPEN.test(text.slice(0, 64));
}

export function splitFrontmatter(text: string): Frontmatter | null {
  const open = OPEN.exec(text.slice(0, 64));
  if (!open) return null;
  const yamlOffset = open[0].length;
  const language = open[1] ?? '';
  CLOSE.lastIndex = yamlOffset;
  const close = CLOSE.exec(text);
  if (!close) {
    return {
      yamlOffset, yaml: '', bodyOffset: 0, language, data: null, cutValues: [],
      error: { message: 'front matter is not closed: no line `---` after the opening `---`', offset: 0 },
    };
  }
  const yaml = text.slice(yamlOffset, close.index);
  const afterClose = close.index + close[0].length;
  const bodyOffset = text[afterClose] === '\n' ? afterClose + 1 : afterClose;
  if (language !== '' && language.toLowerCase() !== 'yaml') {
    return {
      yamlOffset, yaml, bodyOffset, language, data: null, cutValues: [],
      error: { message: `front matter in '${language}' is not YAML; memlint never evaluates it`, offset: 0 },
    };
  }
  return { yamlOffset, yaml, bodyOffset, language, ...parseYaml(yaml, yamlOffset) };
}

function parseYaml(yaml: string, base: number): Pick<Frontmatter, 'data' | 'error' | 'cutValues'> {
  let doc: Document;
  try {
    doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (e) {
    return { data: null, error: { message: (e as Error).message.split('\n')[0]!, offset: base }, cutValues: [] };
  }
  const err = doc.errors[0];
  if (err) {
    return { data: null, error: { message: cleanYamlMessage(err.message, err.code), offset: base + (err.pos[0] ?? 0) }, cutValues: [] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { data: null, error: { message: cleanYamlMessage((e as Error).message, ''), offset: base }, cutValues: [] };
  }
  if (data === null || data === undefined) return { data: {}, error: null, cutValues: [] };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { data: null, error: { message: 'front matter is not a mapping of keys to values', offset: base }, cutValues: [] };
  }
  return { data: data as Record<string, unknown>, error: null, cutValues: yaml.includes(' #') ? findCutValues(doc, yaml, base) : [] };
}

function cleanYamlMessage(message: string, code: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || /Nested mappings are not allowed in compact mappings/.test(first)) {
    return `${first} (a plain value containing ': ' must be quoted)`;
  }
  return first;
}

function findCutValues(doc: Document, yaml: string, base: number): CutValue[] {
  const out: CutValue[] = [];
  const visit = (node: unknown, keyPath: string): void => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      const path = keyPath ? `${keyPath}.${key}` : key;
      const value = pair.value;
      if (isScalar(value) && value.type === Scalar.PLAIN && value.comment && value.range) {
        const lineEnd = yaml.indexOf('\n', value.range[1]);
        const rest = yaml.slice(value.range[1], lineEnd === -1 ? undefined : lineEnd);
        const hash = rest.indexOf('#');
        if (hash !== -1) {
          out.push({ key: path, kept: String(value.source ?? value.value), cut: rest.slice(hash + 1).trim(), offset: base + value.range[0] });
        }
      } else if (isMap(value)) {
        visit(value, path);
      }
    }
  };
  visit(doc.contents, '');
  return out;
}
