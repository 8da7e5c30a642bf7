/** The explicit rule registry: id → module. A test checks every id matches its file and has fixtures. */
import type { Rule } from './types.js';
import catalogStale from './catalog/stale.js';
import fileUnreadable from './file/unreadable.js';
import indexDanglingLink from './index/dangling-link.js';
import indexMissing from './index/missing.js';
import indexNearBudget from './index/near-budget.js';
import indexOverBudget from './index/over-budget.js';
import noteBrokenWikilink from './note/broken-wikilink.js';
import noteDuplicateName from './note/duplicate-name.js';
import noteFrontmatterInvalid from './note/frontmatter-invalid.js';
import noteFrontmatterSchema from './note/frontmatter-schema.js';
import noteMentionedNotLinked from './note/mentioned-not-linked.js';
import noteMissingRationale from './note/missing-rationale.js';
import noteNoFrontmatter from './note/no-frontmatter.js';
import noteOrphan from './note/orphan.js';
import noteWikilinkFolded from './note/wikilink-folded.js';
import vaultSkippedFile from './vault/skipped-file.js';

export const RULES: readonly Rule<any>[] = [
  catalogStale,
  fileUnreadable,
  indexDanglingLink,
  indexMissing,
  indexNearBudget,
  indexOverBudget,
  noteBrokenWikilink,
  noteDuplicateName,
  noteFrontmatterInvalid,
  noteFrontmatterSchema,
  noteMentionedNotLinked,
  noteMissingRationale,
  noteNoFrontmatter,
  noteOrphan,
  noteWikilinkFolded,
  vaultSkippedFile,
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

export function ruleById(id: string): Rule<any> | undefined {
  return RULES.find((r) => r.id === id);
}
