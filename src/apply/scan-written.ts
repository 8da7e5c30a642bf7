/**
 * Every byte apply writes passes the security rules the vault is checked with: text that carries a
 * finding (secret, injection, invisible or bidi characters, …) that none of its sources had is refused.
 * One function for merged bodies, Hermes entries and index lines alike.
 */
import type { Config } from '../config/schema.js';
import { securityFindings } from '../rules/security/in-text.js';

/** Why `written` may not be written (a security rule it trips that no source text does), or null. */
export function newSecurityFinding(
  written: string,
  sources: readonly string[],
  config: Config,
  what: string,
): string | null {
  const added = securityFindings(written, config);
  if (added.length === 0) return null;
  const had = new Set(sources.flatMap((s) => securityFindings(s, config).map((f) => f.ruleId)));
  const fresh = added.filter((f) => !had.has(f.ruleId));
  if (fresh.length === 0) return null;
  return `${what} carries ${[...new Set(fresh.map((f) => f.ruleId))].join(', ')} (${fresh[0]!.message})${sources.length ? `, which none of ${sources.length === 1 ? 'its source' : 'the merged texts'} had` : ''}`;
}
