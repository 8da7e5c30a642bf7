/**
 * The rules that judge text before it is in the vault (a guard draft, a merged body): the five
 * security rules and the front-matter rules. Imported on their own so that guard does not load the
 * whole registry; test/registry.test.ts checks they are the registry's own modules.
 */
import noteFrontmatterInvalid from './note/frontmatter-invalid.js';
import noteFrontmatterSchema from './note/frontmatter-schema.js';
import securityExfiltration from './security/exfiltration.js';
import securityInvisibleUnicode from './security/invisible-unicode.js';
import securityPersistence from './security/persistence.js';
import securityPromptInjection from './security/prompt-injection.js';
import securitySecret from './security/secret.js';
import type { Rule } from './types.js';

export const SECURITY_RULES: readonly Rule<any>[] = [securityExfiltration, securityInvisibleUnicode, securityPersistence, securityPromptInjection, securitySecret];

export const DRAFT_RULES: readonly Rule<any>[] = [noteFrontmatterInvalid, noteFrontmatterSchema, ...SECURITY_RULES];
