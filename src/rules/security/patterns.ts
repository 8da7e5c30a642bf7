/**
 * A small engine for pattern rules: each pattern has a name and a regex run on the normalized text
 * (security/text.ts); findings map back to raw positions. Patterns are anchored on attack
 * vocabulary, not on firm English ("you must", "never" are everywhere in real notes).
 */
import type { VaultFile } from '../../vault/model.js';
import type { Report } from '../types.js';
import { isReadable } from '../shared.js';
import { normalizeForMatching, rawOffset } from './text.js';

export interface Pattern {
  readonly name: string;
  readonly re: RegExp;
  /** Return false to drop a match (placeholders, redactions). */
  readonly accept?: (match: RegExpExecArray) => boolean;
}

/** A rule's patterns with a cheap prefilter: a note without any trigger word is not scanned. */
export interface PatternSet {
  readonly trigger: RegExp;
  readonly patterns: readonly Pattern[];
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

export function* scanPatterns(files: readonly VaultFile[], set: PatternSet, normalized = true): Generator<PatternHit> {
  const compiled = set.patterns.map((pattern) => ({ pattern, re: new RegExp(pattern.re.source, pattern.re.flags.includes('g') ? pattern.re.flags : `${pattern.re.flags}g`) }));
  for (const file of files) {
    if (!isReadable(file)) continue;
    const view = normalized ? normalizeForMatching(file.text, file) : { text: file.text, map: null };
    if (!set.trigger.test(view.text)) continue;
    for (const { pattern, re } of compiled) {
      re.lastIndex = 0;
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

/** The report every phrase rule makes: the kind of pattern and the text as the file has it. */
export function reportPatternHits(ctx: { vault: { files: readonly VaultFile[] }; report: (r: Report) => void }, set: PatternSet, messageId: string): void {
  for (const hit of scanPatterns(ctx.vault.files, set)) {
    ctx.report({ messageId, file: hit.file, offset: hit.offset, length: hit.length, data: { kind: hit.pattern.name, excerpt: hit.raw.trim().replace(/\s+/g, ' ').slice(0, 80) } });
  }
}
