/**
 * The vault as the next commit would hold it: built from the git index (`git ls-files -s` and
 * `git cat-file --batch`), never from the working tree, the way lint-staged and the pre-commit
 * framework judge a commit. Nothing here writes: not the working tree, not the index.
 */
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { VaultError } from '../util/errors.js';
import { runGit, runGitBytes } from '../util/git.js';
import { parseMarkdown } from './file.js';
import { assembleVault } from './load.js';
import type { ParsedFile, SkippedEntry, Vault, VaultKind } from './model.js';
import { detectKind, roleClassifier } from './roles.js';

interface IndexEntry {
  readonly mode: string;
  readonly sha: string;
  readonly path: string;
}

const MARKDOWN = /\.md$/i;
/** The same folders discovery never enters (vault/discover.ts): hidden ones and node_modules. */
const hidden = (path: string): boolean =>
  path.split('/').some((part) => part.startsWith('.') || part === 'node_modules');

/** Stage-0 entries of the index under `dir`, paths relative to it. */
function indexEntries(dir: string): IndexEntry[] {
  let out: string;
  try {
    out = runGit(dir, ['ls-files', '-s', '-z', '--', '.']);
  } catch {
    throw new VaultError(`--staged: ${dir} is not inside a git repository`);
  }
  const entries: IndexEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    // "<mode> <sha> <stage>\t<path>"
    const tab = rec.indexOf('\t');
    const [mode, sha, stage] = rec.slice(0, tab).split(' ');
    if (!mode || !sha || stage !== '0') continue; // an unmerged path: git refuses the commit anyway
    entries.push({ mode, sha, path: rec.slice(tab + 1) });
  }
  return entries;
}

/** The blobs' bytes, in one `git cat-file --batch` call. */
function readBlobs(dir: string, shas: readonly string[]): Map<string, Uint8Array> {
  const blobs = new Map<string, Uint8Array>();
  const unique = [...new Set(shas)];
  if (!unique.length) return blobs;
  const buf = runGitBytes(dir, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const header = buf.subarray(at, nl).toString('utf8').split(' ');
    at = nl + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    blobs.set(header[0]!, buf.subarray(at, at + size));
    at += size + 1; // the content, then a newline
  }
  return blobs;
}

/** Loads the vault at `dir` from the git index. */
export function loadStagedVault(dir: string, options: { config: Config; kind?: VaultKind }): Vault {
  const root = resolve(dir);
  const { config } = options;
  const entries = indexEntries(root);
  const skipped: SkippedEntry[] = [];
  const other: string[] = [];
  const markdown: IndexEntry[] = [];
  for (const e of entries) {
    if (hidden(e.path)) continue;
    if (e.mode === '120000') {
      skipped.push({
        path: e.path,
        reason: 'symlink-outside',
        detail: 'a symbolic link in the index: not followed by --staged',
      });
      continue;
    }
    if (e.mode === '160000') continue; // a submodule
    if (MARKDOWN.test(e.path)) markdown.push(e);
    else other.push(e.path);
  }
  const blobs = readBlobs(
    root,
    markdown.map((e) => e.sha),
  );
  const bytesOf = (e: IndexEntry): Uint8Array => blobs.get(e.sha) ?? new Uint8Array(0);
  const decoder = new TextDecoder();
  const asDiscovered = markdown.map((e) => ({ path: e.path, absPath: `${root}/${e.path}`, via: null, entry: e }));
  const byPath = new Map(markdown.map((e) => [e.path, e] as const));
  const kind =
    options.kind ?? config.kind ?? detectKind(asDiscovered, (f) => decoder.decode(bytesOf(byPath.get(f.path)!)));
  const roleOf = roleClassifier(config, kind);
  const parsed: ParsedFile[] = [];
  for (const f of asDiscovered) {
    const role = roleOf(f.path);
    if (role === 'ignored') {
      other.push(f.path);
      skipped.push({ path: f.path, reason: 'ignored', detail: 'matches `ignore` in config' });
      continue;
    }
    const bytes = bytesOf(f.entry);
    const mode = f.entry.mode === '100755' ? 0o100755 : 0o100644;
    parsed.push(
      parseMarkdown(
        f.path,
        f.absPath,
        role,
        bytes,
        { size: bytes.length, mtimeMs: 0, mode },
        role === 'note' ? config.maxFileBytes : 256 * 1024 * 1024,
      ),
    );
  }
  other.sort();
  return assembleVault(root, kind, config, parsed, other, skipped);
}
