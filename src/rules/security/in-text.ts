/** The security rules run on text that is not in the vault yet (a merged body, a guard draft). */
import type { Config } from '../../config/schema.js';
import { runRules } from '../engine.js';
import { SECURITY_RULES } from '../draft.js';
import type { Finding } from '../types.js';
import { vaultFromText } from '../../vault/from-text.js';

export { SECURITY_RULES };

export function securityFindings(text: string, config: Config, path = 'draft.md'): Finding[] {
  const vault = vaultFromText('/memlint-draft', { ...config, reviewed: [] }, [{ path, text }]);
  return [...runRules(vault, SECURITY_RULES).findings];
}
