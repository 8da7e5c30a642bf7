/**
 * Every byte apply writes passes the security rules the vault is checked with: text that carries a
 * finding (secret, injection, invisible or bidi characters, …) that none of its sources had is refused.
 * One function for merged bodies, Hermes entries and index lines alike.
 */
import type { Config } from '../config/schema.js';
import { securityFindings } from '../rules/security/in-text.js';

/**
 * Answers for short texts, per config object: the post-state gate plans the same items again for each trial,
 * and every index line an item writes would be scanned again (each scan builds a one-note vault).
 */
const memo = new WeakMap<Config, Map<string, string | null>>();
const MEMO_KEY_CHARS = 4096;
const MEMO_ENTRIES = 100_000;

/** Why `written` may not be written (a security rule it trips that no source text does), or null. */
export function newSecurityFinding(
  written: string,
  sources: readonly string[],
  config: Config,
  what: string,
): string | null {
  const size = sources.reduce((n, s) => n + s.length + 1, written.length + what.length);
  if (size > MEMO_KEY_CHARS) return scan(written, sources, config, what);
  let m = memo.get(config);
  if (!m) memo.set(config, (m = new Map()));
  const key = JSON.stringify([what, written, sources]);
  const hit = m.get(key);
  if (hit !== undefined) return hit;
  const why = scan(written, sources, config, what);
  if (m.size >= MEMO_ENTRIES) m.clear();
  m.set(key, why);
  return why;
}

function scan(written: string, sources: readonly string[], config: Config, what: string): string | null {
  const added = securityFindings(written, config);
  if (added.length === 0) return null;
  const had = new Set(sources.flatMap((s) => securityFindings(s, config).map((f) => f.ruleId)));
  const fresh = added.filter((f) => !had.has(f.ruleId));
  if (fresh.length === 0) return null;
  return `${what} carries ${[...new Set(fresh.map((f) => f.ruleId))].join(', ')} (${fresh[0]!.message})${sources.length ? `, which none of ${sources.length === 1 ? 'its source' : 'the merged texts'} had` : ''}`;
}
