/**
 * The rules that judge text before it is in the vault (a guard draft, a merged body): the five
 * security rules, the front-matter rules and the not-memory rules. Imported on their own so that guard does not load the
 * whole registry; test/registry.test.ts checks they are the registry's own modules.
 */
import memoryDataDump from './memory/data-dump.js';
import memoryDuplicatesContextFile from './memory/duplicates-context-file.js';
import memorySessionResidue from './memory/session-residue.js';
import noteFrontmatterInvalid from './note/frontmatter-invalid.js';
import noteFrontmatterSchema from './note/frontmatter-schema.js';
import securityExfiltration from './security/exfiltration.js';
import securityInvisibleUnicode from './security/invisible-unicode.js';
import securityPersistence from './security/persistence.js';
import securityPromptInjection from './security/prompt-injection.js';
import securitySecret from './security/secret.js';
import type { Rule } from './types.js';

export const SECURITY_RULES: readonly Rule<any>[] = [
  securityExfiltration,
  securityInvisibleUnicode,
  securityPersistence,
  securityPromptInjection,
  securitySecret,
];

/**
 * What should not be memory (issue 19): a draft these rules report is one to ask about, not to
 * refuse (guard's verdict policy maps them to `ask`). memory/restates-project is not here: it runs
 * git in the project, too slow for a hook that runs on every write; consolidate and check run it.
 */
export const NOT_MEMORY_RULES: readonly Rule<any>[] = [
  memoryDataDump,
  memoryDuplicatesContextFile,
  memorySessionResidue,
];
const NOT_MEMORY_IDS = new Set(NOT_MEMORY_RULES.map((r) => r.id));

/** A finding that makes a draft one to ask about: it is memory that should not be memory. */
export const asksAbout = (f: { readonly ruleId: string }): boolean => NOT_MEMORY_IDS.has(f.ruleId);

export const DRAFT_RULES: readonly Rule<any>[] = [
  noteFrontmatterInvalid,
  noteFrontmatterSchema,
  ...SECURITY_RULES,
  ...NOT_MEMORY_RULES,
];
