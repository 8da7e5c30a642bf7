/**
 * File rules that read one file and their options, nothing else of the vault (not its links, other
 * notes or catalog; index/lost-correction reads the index's budget, made from the index file alone):
 * they give the same findings on a vault made of that file alone, so
 * `check` may run them on another thread (rules/parallel.ts). test/parallel-rules.test.ts checks that
 * each is a file rule and that none reads `ctx.vault`.
 */
import fileUnreadable from './file/unreadable.js';
import indexLostCorrection from './index/lost-correction.js';
import memoryDataDump from './memory/data-dump.js';
import memorySessionResidue from './memory/session-residue.js';
import noteFrontmatterInvalid from './note/frontmatter-invalid.js';
import noteMissingRationale from './note/missing-rationale.js';
import { SECURITY_RULES } from './draft.js';
import type { Rule } from './types.js';

export const PORTABLE_RULES: readonly Rule<any>[] = [
  fileUnreadable,
  indexLostCorrection,
  memoryDataDump,
  memorySessionResidue,
  noteFrontmatterInvalid,
  noteMissingRationale,
  ...SECURITY_RULES,
];
