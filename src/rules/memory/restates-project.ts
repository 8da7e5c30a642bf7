import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { runGit } from '../../util/git.js';
import type { Vault, VaultFile } from '../../vault/model.js';
import { defineRule } from '../types.js';
import { lazySchema } from '../../util/lazy-zod.js';
import { projectRoot } from './context-files.js';
import { CONTEXT_FILE_NAMES } from './session-residue.js';
import { linesOf, unitsOf, type Unit } from './units.js';

const optionsSchema = lazySchema((z) =>
  z
    .object({
      minShare: z
        .number()
        .gt(0)
        .lte(1)
        .default(0.5)
        .describe('Share of the body that must be a copy of the project or its history.'),
      minLines: z
        .number()
        .int()
        .positive()
        .default(3)
        .describe('Lines a code block must have, and share with the file it names, to count as a copy.'),
      maxCommits: z
        .number()
        .int()
        .positive()
        .default(20_000)
        .describe('Commits of the project read once per run to recognize commit hashes.'),
    })
    .strict(),
);
type Options = z.infer<ReturnType<typeof optionsSchema>>;
/** What the schema gives for `{}` (test/registry.test.ts checks it): the engine uses it without loading zod. */
const DEFAULTS: Options = { minShare: 0.5, minLines: 3, maxCommits: 20_000 };

export interface Restated {
  readonly offset: number;
  readonly chars: number;
  readonly what: string;
}

const FILE_NAME = /(?:^|[\s`'"(:])((?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[A-Za-z][\w]{0,9})(?=$|[\s`'"),:])/g;
const TREE = /^\s*(?:[│|]\s*)*(?:├──|└──|\|--|`--|[│|]\s*$)/;
const TREE_ITEM = /(?:├──|└──|\|--|`--)\s*[\w.@/-]+?(?:\/|\.[A-Za-z]\w{0,9})(?:\s|$)/;
const COMMIT_LINE = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?`?([0-9a-f]{7,40})`?\b/;
const COMMIT_REF = /\b(?:commit(?:ted)?|in|at|see|via|by|changed|fixed|reverted|merged)\s+`?([0-9a-f]{7,40})`?\b/gi;

interface ProjectFacts {
  readonly root: string;
  readonly commits: ReadonlySet<string> | null;
  /** File name → the one tracked path with that name (`git ls-files`), for notes that name `graph.py` of `src/x/graph.py`. */
  readonly byName: ReadonlyMap<string, string | null>;
  readonly lines: Map<string, ReadonlySet<string> | null>;
}

const factsCache = new WeakMap<Vault, ProjectFacts | null>();

function factsOf(vault: Vault, o: Options, chosen?: string | null): ProjectFacts | null {
  if (chosen === undefined && factsCache.has(vault)) return factsCache.get(vault)!;
  const root = chosen === undefined ? projectRoot(vault) : chosen;
  let facts: ProjectFacts | null = null;
  if (root && existsSync(root)) {
    let commits: Set<string> | null = null;
    const byName = new Map<string, string | null>();
    if (existsSync(join(root, '.git'))) {
      try {
        commits = new Set(
          runGit(root, ['log', '--all', `--max-count=${o.maxCommits}`, '--format=%H'])
            .split('\n')
            .filter(Boolean),
        );
      } catch {
        commits = null;
      }
      try {
        for (const p of runGit(root, ['ls-files', '-z']).split('\0')) {
          if (!p) continue;
          const name = p.slice(p.lastIndexOf('/') + 1);
          byName.set(name, byName.has(name) ? null : p);
        }
      } catch {
        /* not a work tree: names resolve from the root only */
      }
    }
    facts = { root, commits, byName, lines: new Map() };
  }
  if (chosen === undefined) factsCache.set(vault, facts);
  return facts;
}

/** Trimmed non-trivial lines of a project file named in a note (null when it is not one). */
function fileLines(facts: ProjectFacts, name: string): ReadonlySet<string> | null {
  if (facts.lines.has(name)) return facts.lines.get(name)!;
  let set: Set<string> | null = null;
  let abs = isAbsolute(name) ? name : resolve(facts.root, name);
  if (!existsSync(abs) && !name.includes('/')) {
    const tracked = facts.byName.get(name);
    if (tracked) abs = resolve(facts.root, tracked);
  }
  if (abs === facts.root || abs.startsWith(facts.root + sep)) {
    try {
      if (statSync(abs).isFile() && statSync(abs).size <= 2_000_000)
        set = new Set(
          readFileSync(abs, 'utf8')
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter((l) => l.length >= 4),
        );
    } catch {
      set = null;
    }
  }
  facts.lines.set(name, set);
  return set;
}

const isCommit = (facts: ProjectFacts, hash: string): boolean => {
  if (!facts.commits) return false;
  if (hash.length === 40) return facts.commits.has(hash);
  for (const c of facts.commits) if (c.startsWith(hash)) return true;
  return false;
};

/** Code blocks copied from the file they name, file trees, and commit lists in one unit. */
export function restatedIn(u: Unit, facts: ProjectFacts, o: Options): { restated: Restated[]; chars: number } {
  const text = u.file.text;
  const lines = linesOf(u);
  const out: Restated[] = [];
  const blocks = u.codeRanges.filter(([s, e]) => text.slice(s, e).includes('\n'));
  let chars = 0;
  for (const l of lines) chars += l.text.trim().length;
  const named = [...text.slice(u.start, u.end).matchAll(FILE_NAME)];
  for (const [s, e] of blocks) {
    const body = text
      .slice(s, e)
      .split('\n')
      .slice(1, -1)
      .map((l) => l.trim());
    const block = body.filter((l) => l.length >= 4);
    const size = body.reduce((n, l) => n + l.length, 0);
    // A tree of files and folders (names with an extension or a trailing /), not a class hierarchy.
    const tree = block.filter((l) => TREE.test(l));
    if (
      tree.length >= Math.max(o.minLines, block.length / 2) &&
      tree.filter((l) => TREE_ITEM.test(l)).length >= tree.length / 2
    ) {
      out.push({ offset: s, chars: size, what: 'a file tree of the project' });
      continue;
    }
    // The file a block copies is named in its fence line or in the line before it.
    // The file a block copies is named in its fence line or the line before it, else elsewhere in the note.
    const lineBefore = text.lastIndexOf('\n', s - 2);
    const header = text.slice(lineBefore + 1, text.indexOf('\n', s));
    const names = [...new Set([...header.matchAll(FILE_NAME), ...named].map((m) => m[1]!))].slice(0, 20);
    for (const name of names) {
      const set = fileLines(facts, name);
      if (!set) continue;
      const shared = block.filter((l) => set.has(l)).length;
      if (shared >= o.minLines && shared >= block.length * 0.8) {
        out.push({ offset: s, chars: size, what: `${name} (${shared} of ${block.length} lines)` });
        break;
      }
    }
  }
  if (facts.commits) {
    const listed: { offset: number; chars: number; hash: string }[] = [];
    for (const l of lines) {
      const m = COMMIT_LINE.exec(l.text);
      if (m && isCommit(facts, m[1]!)) listed.push({ offset: l.start, chars: l.text.trim().length, hash: m[1]! });
      else
        for (const r of l.text.matchAll(COMMIT_REF))
          if (isCommit(facts, r[1]!)) listed.push({ offset: l.start, chars: l.text.trim().length, hash: r[1]! });
    }
    if (listed.length >= o.minLines) {
      const byLine = new Map(listed.map((c) => [c.offset, c]));
      out.push({
        offset: listed[0]!.offset,
        chars: [...byLine.values()].reduce((n, c) => n + c.chars, 0),
        what: `git history (commits ${listed
          .slice(0, 3)
          .map((c) => c.hash.slice(0, 7))
          .join(', ')}${listed.length > 3 ? ', …' : ''})`,
      });
    }
  }
  return { restated: out, chars };
}

export interface RestatesResult {
  readonly skipped: 'no-root' | null;
  readonly found: { file: VaultFile; unit: Unit; restated: Restated[]; share: number }[];
}

/** `root`: the project root chosen by the caller (consolidate's `--root`); default: as consolidate chooses it from the config. */
export function restatements(vault: Vault, o: Options, root?: string | null): RestatesResult {
  const facts = factsOf(vault, o, root);
  if (!facts) return { skipped: 'no-root', found: [] };
  const found: RestatesResult['found'] = [];
  for (const file of vault.files) {
    if (CONTEXT_FILE_NAMES.test(file.path)) continue;
    for (const unit of unitsOf(file)) {
      const { restated, chars } = restatedIn(unit, facts, o);
      const copied = restated.reduce((n, r) => n + r.chars, 0);
      if (restated.length && chars > 0 && copied >= chars * o.minShare)
        found.push({ file, unit, restated, share: Math.min(1, copied / chars) });
    }
  }
  return { skipped: null, found };
}

export const RESTATES_DEFAULTS: Options = DEFAULTS;

export default defineRule<Options>({
  id: 'memory/restates-project',
  meta: {
    description:
      'A note or store entry that is mostly a copy of a project file (a code block of the file it names, a file tree) or of git history (commit lists).',
    severity: 'info',
    tags: ['memory', 'budget'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'What the code or the git history already records is read there, current, when needed; a copy in memory goes stale, and costs budget in every session. Needs the project root (config `root`, or decoded from ~/.claude/projects/<encoded>/memory as consolidate does); without one the rule is skipped, and `consolidate` counts the skip.',
      fix: 'Retire the note, or trim it to the one rule it teaches and name the file or commit instead of copying it. To keep one note, add `{ "file": "<note>", "rule": "memory/restates-project", "reason": "…" }` to `reviewed` in the config.',
    },
    messages: { restates: '{share}% of {unit} restates the project: {what}' },
    get options() {
      return optionsSchema();
    },
    defaults: DEFAULTS,
    readsOutsideVault: true,
  },
  check({ vault, options, report }) {
    for (const f of restatements(vault, options).found) {
      const unit = f.unit.label === f.file.path ? 'this note' : `entry ${f.unit.label.slice(f.file.path.length + 1)}`;
      report({
        messageId: 'restates',
        file: f.file,
        offset: f.restated[0]!.offset,
        data: { share: Math.round(100 * f.share), unit, what: f.restated.map((r) => r.what).join('; ') },
      });
    }
  },
});
