/** The explicit rule registry: id → module. A test checks every id matches its file and has fixtures. */
import type { Rule } from './types.js';
import catalogStale from './catalog/stale.js';
import fileUnreadable from './file/unreadable.js';
import indexDanglingLink from './index/dangling-link.js';
import indexLostCorrection from './index/lost-correction.js';
import indexMissing from './index/missing.js';
import indexNearBudget from './index/near-budget.js';
import indexOverBudget from './index/over-budget.js';
import memoryDataDump from './memory/data-dump.js';
import memoryDuplicatesContextFile from './memory/duplicates-context-file.js';
import memoryRestatesProject from './memory/restates-project.js';
import memorySessionResidue from './memory/session-residue.js';
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
import hermesDuplicateEntry from './hermes/duplicate-entry.js';
import hermesEntryTooLarge from './hermes/entry-too-large.js';
import hermesNearBudget from './hermes/near-budget.js';
import hermesNearDuplicateEntry from './hermes/near-duplicate-entry.js';
import hermesOverBudget from './hermes/over-budget.js';
import hermesShape from './hermes/shape.js';
import securityExfiltration from './security/exfiltration.js';
import securityInvisibleUnicode from './security/invisible-unicode.js';
import securityPersistence from './security/persistence.js';
import securityPromptInjection from './security/prompt-injection.js';
import securitySecret from './security/secret.js';

export const RULES: readonly Rule<any>[] = [
  catalogStale,
  fileUnreadable,
  hermesDuplicateEntry,
  hermesEntryTooLarge,
  hermesNearBudget,
  hermesNearDuplicateEntry,
  hermesOverBudget,
  hermesShape,
  indexDanglingLink,
  indexLostCorrection,
  indexMissing,
  indexNearBudget,
  indexOverBudget,
  memoryDataDump,
  memoryDuplicatesContextFile,
  memoryRestatesProject,
  memorySessionResidue,
  noteBrokenWikilink,
  noteDuplicateName,
  noteFrontmatterInvalid,
  noteFrontmatterSchema,
  noteMentionedNotLinked,
  noteMissingRationale,
  noteNoFrontmatter,
  noteOrphan,
  noteWikilinkFolded,
  securityExfiltration,
  securityInvisibleUnicode,
  securityPersistence,
  securityPromptInjection,
  securitySecret,
  vaultSkippedFile,
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);
