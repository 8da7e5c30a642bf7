/** Every note's signature, from the cache where the file is unchanged, else read and computed. */
import { statSync } from 'node:fs';
import type { Config } from '../config/schema.js';
import { hashSet, signature } from '../consolidate/minhash.js';
import { shingles, statedText, tokens } from '../consolidate/text.js';
import type { Discovery } from '../vault/discover.js';
import { roleClassifier } from '../vault/roles.js';
import { readMarkdownFile } from '../vault/file.js';
import { readCache, writeCache, type NoteSignature } from './cache.js';
import { mark } from '../util/timing.js';

export interface SignatureSet { readonly notes: readonly NoteSignature[]; readonly fromCache: number; readonly computed: number }

export type CacheMode = 'read-write' | 'read-only' | 'off';

/** `found` is the vault's listing (guard walks it once, for the kind and for this). */
export function noteSignatures(root: string, config: Config, found: Discovery, options: { cache: CacheMode }): SignatureSet {
  const roleOf = roleClassifier(config, 'claude');
  const cache = options.cache !== 'off' ? readCache(root) : null;
  mark('  read cache');
  const notes: NoteSignature[] = [];
  let fromCache = 0;
  let computed = 0;
  for (const f of found.markdown) {
    if (roleOf(f.path) !== 'note') continue;
    let st;
    try { st = statSync(f.absPath); } catch { continue; }
    const hit = cache?.get(f.path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) { notes.push(hit); fromCache++; continue; }
    const parsed = readMarkdownFile(f.path, f.absPath, 'note', config.maxFileBytes);
    if (parsed.problem && parsed.problem.kind !== 'invalid-utf8') continue;
    const hashes = hashSet(shingles(tokens(statedText(parsed))));
    const meta = { name: parsed.meta.name, type: parsed.meta.type, modified: parsed.meta.modified, origin: parsed.meta.origin };
    notes.push({ path: f.path, size: parsed.size, mtimeMs: parsed.mtimeMs, signature: signature(hashes), shingles: hashes, meta: () => meta });
    computed++;
  }
  if (options.cache === 'read-write' && (computed > 0 || !cache || cache.size !== notes.length)) {
    try { writeCache(root, notes); } catch { /* a read-only vault: answer without caching */ }
  }
  return { notes, fromCache, computed };
}
