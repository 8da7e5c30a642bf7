/**
 * A small engine for pattern rules: each pattern has a name and a regex run on the normalized text
 * (security/text.ts); findings map back to raw positions. Patterns are anchored on attack
 * vocabulary, not on firm English ("you must", "never" are everywhere in real notes).
 */
import type { VaultFile } from '../../vault/model.js';
import { isReadable } from '../shared.js';
import { normalizeForMatching, rawOffset } from './text.js';

export interface Pattern {
  readonly name: string;
  readonly re: RegExp;
  /** Return false to drop a match (placeholders, redactions). */
  readonly accept?: (match: RegExpExecArray) => boolean;
}

export interface PatternHit {
  readonly file: VaultFile;
  readonly pattern: Pattern;
  readonly offset: number;
  readonly length: number;
  readonly match: RegExpExecArray;
  /** The matched text as the file has it (not normalized), for messages. */
  readonly raw: string;
}

export function* scanPatterns(files: readonly VaultFile[], patterns: readonly Pattern[], normalized = true): Generator<PatternHit> {
  for (const file of files) {
    if (!isReadable(file)) continue;
    const view = normalized ? normalizeForMatching(file.text, file) : { text: file.text, map: [] as number[] };
    for (const pattern of patterns) {
      const re = new RegExp(pattern.re.source, pattern.re.flags.includes('g') ? pattern.re.flags : `${pattern.re.flags}g`);
      for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
        if (m[0].length === 0) { re.lastIndex++; continue; }
        if (pattern.accept && !pattern.accept(m)) continue;
        const start = normalized ? rawOffset(view, m.index) : m.index;
        const end = normalized ? rawOffset(view, m.index + m[0].length - 1) + 1 : m.index + m[0].length;
        yield { file, pattern, offset: start, length: Math.max(1, end - start), match: m, raw: file.text.slice(start, end) };
      }
    }
  }
}
