/**
 * The post-state gate: before anything is written, the vault as the plan would leave it is built
 * in memory and checked with check's own rules. An approved item is refused when the run would add
 * an error finding that was not there before, or would leave the text of a removed index line
 * nowhere in the vault. Items are tried in proposal order, in halves, so a few bad items cost a few
 * extra checks, not one per item.
 */
import type { Proposal } from '../proposal/schema.js';
import { compareFindings, runRules, type FileFindingsCache } from '../rules/engine.js';
import { RULES } from '../rules/index.js';
import type { Finding, Rule } from '../rules/types.js';
import { parseMarkdown } from '../vault/file.js';
import { assembleVault, linkBase } from '../vault/load.js';
import type { Link, Vault, VaultFile } from '../vault/model.js';
import { roleClassifier } from '../vault/roles.js';
import { count } from '../util/counters.js';
import { sha1Base64 } from '../util/digest.js';
import { HOLDING, type FileChange } from './compose.js';
import type { PathMemo } from './paths.js';
import { planApply, type ActionMemo, type ItemOutcome, type Plan } from './plan.js';

export interface LostLine {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface GateReport {
  /** Error findings the approved run would add (after the refusals: those it still adds when overridden). */
  readonly newErrors: readonly Finding[];
  readonly lost: readonly LostLine[];
  /** Items the gate refused, with why. */
  readonly refused: ReadonlyMap<string, string>;
  /** `--allow-new-errors`: the gate reported but refused nothing. */
  readonly overridden: boolean;
}

export interface GateOptions {
  readonly allOrNothing?: boolean;
  readonly allowNewErrors?: boolean;
}

/** Counts in a message ("206 lines") change with any edit: a finding is the same finding without them. */
const errorKey = (f: Finding): string => `${f.ruleId}\0${f.file}\0${f.message.replace(/\d+/g, '#')}`;
/** An error key without its file. */
const looseOf = (key: string): string => {
  const a = key.indexOf('\0');
  return key.slice(0, a) + key.slice(key.indexOf('\0', a + 1));
};

/**
 * A file parsed for a post-image, by its bytes object: every trial of the gate builds a post-image
 * that shares the bytes of the files it leaves unchanged, and parsing is a function of the bytes and
 * the arguments in `key`.
 */
const parsedMemo = new WeakMap<
  Uint8Array,
  { readonly key: string; readonly parsed: ReturnType<typeof parseMarkdown> }
>();

/**
 * The vault's own file as the parse of its bytes that `postImage` would make, without parsing again: the first
 * post-image of a gate run re-parsed every file of the vault (~2 s at hard 10k). Only a plain file read whole and
 * decoded without a problem, with the path, role, size and stat the post-image's parse would be given: then every
 * field is what that parse gives (one parse of one bytes object). Its unresolved links are parsed for when read
 * (`assembleVault` reads them only for a file whose resolved links it cannot reuse from the vault).
 */
function asParsed(
  f: VaultFile,
  role: VaultFile['role'],
  maxBytes: number,
  absPath: string,
  parse: () => ReturnType<typeof parseMarkdown>,
): ReturnType<typeof parseMarkdown> | undefined {
  if (Object.getPrototypeOf(f) !== Object.prototype || f.problem !== null || f.role !== role) return undefined;
  if (f.absPath !== absPath || f.size !== f.bytes.length || f.size > maxBytes) return undefined;
  let links: ReturnType<typeof parseMarkdown>['scan']['links'] | undefined;
  const codeRanges = f.codeRanges;
  return {
    path: f.path,
    absPath: f.absPath,
    role: f.role,
    stem: f.stem,
    size: f.size,
    mtimeMs: f.mtimeMs,
    mode: f.mode,
    bytes: f.bytes,
    text: f.text,
    bom: f.bom,
    crlf: f.crlf,
    problem: f.problem,
    frontmatter: f.frontmatter,
    bodyOffset: f.bodyOffset,
    meta: f.meta,
    position: f.position,
    lineCount: f.lineCount,
    scan: {
      get links() {
        count('apply.postImageScans');
        return (links ??= parse().scan.links);
      },
      codeRanges,
    },
  };
}

/** The vault as `changes` would leave it (files under .memlint/ are not part of it). */
export function postImage(vault: Vault, changes: readonly FileChange[]): Vault {
  const images = new Map<string, { bytes: Uint8Array; mode: number; mtimeMs: number; role?: VaultFile['role'] }>();
  for (const f of vault.files) images.set(f.path, { bytes: f.bytes, mode: f.mode, mtimeMs: f.mtimeMs, role: f.role });
  for (const c of changes) {
    if (c.path.startsWith(`${HOLDING}/`) || c.path.startsWith('.memlint/')) continue;
    if (!c.after) {
      images.delete(c.path);
      continue;
    }
    const old = images.get(c.path);
    images.set(c.path, {
      bytes: c.after.bytes,
      mode: c.after.mode,
      mtimeMs: old?.mtimeMs ?? Date.now(),
      ...(old?.role ? { role: old.role } : {}),
    });
  }
  const roleOf = roleClassifier(vault.config, vault.kind);
  const parsed = [];
  for (const [path, img] of [...images].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const role = img.role ?? roleOf(path);
    if (role === 'ignored') continue;
    const maxBytes = role === 'note' ? vault.config.maxFileBytes : Number.MAX_SAFE_INTEGER;
    const key = `${vault.root}\0${path}\0${role}\0${img.mtimeMs}\0${img.mode}\0${maxBytes}`;
    const hit = parsedMemo.get(img.bytes);
    if (hit && hit.key === key) {
      parsed.push(hit.parsed);
      continue;
    }
    const parse = (): ReturnType<typeof parseMarkdown> => {
      count('apply.postImageParses');
      return parseMarkdown(
        path,
        `${vault.root}/${path}`,
        role,
        img.bytes,
        { size: img.bytes.length, mtimeMs: img.mtimeMs, mode: img.mode },
        maxBytes,
      );
    };
    const own = vault.byPath.get(path);
    const p =
      own && own.bytes === img.bytes
        ? (asParsed(own, role, maxBytes, `${vault.root}/${path}`, parse) ?? parse())
        : parse();
    parsedMemo.set(img.bytes, { key, parsed: p });
    parsed.push(p);
  }
  return assembleVault(
    vault.root,
    vault.kind,
    vault.config,
    parsed,
    [...vault.otherFiles],
    [...vault.skipped],
    undefined,
    linkBase(vault),
  );
}

/**
 * Whether a rule can report an error finding in this vault: its configured severity, else its default or a
 * per-finding escalation (`meta.escalates`). The gate compares error findings only, so it runs only these
 * (a warning rule such as index/lost-correction runs the conflict engine over every lost index line).
 */
export function mayReportError(rule: Rule<unknown>, vault: Vault): boolean {
  const setting = vault.config.rules[rule.id];
  const configured = setting === undefined ? undefined : typeof setting === 'string' ? setting : setting.severity;
  if (configured !== undefined) return configured === 'error';
  return rule.meta.severity === 'error' || rule.meta.escalates === true;
}

/** The rules the gate runs on a vault (those that can report an error), and the vault's own error findings, once per vault. */
const gateRules = (vault: Vault): readonly Rule<any>[] => RULES.filter((r) => mayReportError(r, vault));
/**
 * File rules' findings on a file the plan leaves unchanged are the findings on the vault itself: the post-image
 * shares the file's bytes (postImage), so they are computed once, not once per trial (the `check --cache`
 * contract: a file rule's findings depend on the file's bytes, path and role, and the config, which the
 * post-image keeps).
 */
function fileFindingsMemo(): FileFindingsCache {
  const byBytes = new WeakMap<Uint8Array, Map<string, readonly Finding[]>>();
  const key = (file: VaultFile, ruleId: string): string => `${file.path}\0${file.role}\0${ruleId}`;
  return {
    get: (file, ruleId) => (file.problem === null ? byBytes.get(file.bytes)?.get(key(file, ruleId)) : undefined),
    set: (file, ruleId, findings) => {
      // Each file rule run on a file (the engine sets what it found): the gate runs them on the files a plan changes.
      count('apply.fileRuleRuns');
      if (file.problem !== null) return;
      let m = byBytes.get(file.bytes);
      if (!m) byBytes.set(file.bytes, (m = new Map()));
      m.set(key(file, ruleId), [...findings]);
    },
  };
}
const memos = new WeakMap<Vault, FileFindingsCache>();
const memoOf = (vault: Vault): FileFindingsCache =>
  memos.get(vault) ?? (memos.set(vault, fileFindingsMemo()), memos.get(vault)!);
const findingsOf = (vault: Vault, rules: readonly Rule<any>[], memo: FileFindingsCache): Finding[] =>
  runRules(vault, rules, memo).findings.filter((f) => f.severity === 'error');
/** The error findings of one check of a vault (counted: the post-image's is one check, in two runs). */
const errorsOf = (vault: Vault, rules: readonly Rule<any>[], memo: FileFindingsCache): Finding[] => {
  count('apply.gateChecks');
  return findingsOf(vault, rules, memo);
};
/**
 * The vault with only the files a judged plan changes, for its file rules: a file rule reads the file it is given and
 * the vault's config, never the vault's other files, and a file the plan leaves as it was has no findings to compare
 * (`unchangedIn`). Before this every file of the vault was offered to every file rule to be answered "none" (at hard
 * 10k, 14 rules × 10,000 files per side per judged plan). Every other field is the vault's own.
 */
const changedOnly = (vault: Vault, unchanged: (path: string) => boolean): Vault => ({
  ...vault,
  files: vault.files.filter((f) => !unchanged(f.path)),
});
const addKey = (m: Map<string, number>, f: Finding): void => {
  m.set(errorKey(f), (m.get(errorKey(f)) ?? 0) + 1);
};
/**
 * The vault's own error findings from the rules that read more than one file (no `checkFile`), once per vault.
 * File rules' findings are compared per judged post-image, on the files it changes only (`judgeChanges`).
 */
const baselines = new WeakMap<Vault, ReadonlyMap<string, number>>();
function baselineOf(vault: Vault): ReadonlyMap<string, number> {
  let baseline = baselines.get(vault);
  if (!baseline) {
    const m = new Map<string, number>();
    for (const f of errorsOf(
      vault,
      gateRules(vault).filter((r) => !r.checkFile),
      memoOf(vault),
    ))
      addKey(m, f);
    baselines.set(vault, (baseline = m));
  }
  return baseline;
}

/**
 * Whether the file at `path` is the same file in the vault and in the post-image: one bytes object, one role, both
 * decoded without a problem. Its file-rule findings are then the same on both sides (the memo above answers the
 * second with the first's), so they cancel in the comparison and neither side computes them.
 */
const unchangedIn =
  (vault: Vault, post: Vault) =>
  (path: string): boolean => {
    const a = vault.byPath.get(path),
      b = post.byPath.get(path);
    return (
      a !== undefined &&
      b !== undefined &&
      a.bytes === b.bytes &&
      a.role === b.role &&
      a.problem === null &&
      b.problem === null
    );
  };

/** The memo, answering "no findings" for a file the post-image leaves as it was. */
function skippingUnchanged(memo: FileFindingsCache, unchanged: (path: string) => boolean): FileFindingsCache {
  return {
    get: (file, ruleId) => {
      // Each file a judged plan offers a file rule (the engine asks before it runs one).
      count('apply.fileRuleVisits');
      return unchanged(file.path) ? NO_FINDINGS : memo.get(file, ruleId);
    },
    set: (file, ruleId, findings) => memo.set(file, ruleId, findings),
  };
}
const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** A line's words without link targets or list markers: what must survive somewhere in the vault. */
export function factText(line: string): string {
  return factParts(line).join(' ');
}

/**
 * The runs of a line's fact text between its wikilinks, in order: the words a run must leave somewhere,
 * in that order on one line. A wikilink leaves a gap rather than nothing, so a line whose dead `[[x]]` is
 * unlinked to `x` (words kept, link gone) still holds every run.
 */
export function factParts(line: string): string[] {
  return line
    .replace(/\r$/, '')
    .replace(/\[\[[^\]]*\]\]/g, '\u0000')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, '')
    .split('\u0000')
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
}

/** Whether `line` holds every part, in order. */
function holdsInOrder(line: string, parts: readonly string[]): boolean {
  let pos = 0;
  for (const q of parts) {
    const k = line.indexOf(q, pos);
    if (k < 0) return false;
    pos = k + q.length;
  }
  return true;
}

/**
 * Fact lines with a word index: a removed line's parts are looked for only in the lines holding every one of (up
 * to three of) the rarest of its interior words (a part found inside a line has its interior words there as whole
 * words), not in the whole vault's text per removed line. A line whose fact text is the parts joined holds them
 * (the common case: a line moved or relinked) and is found in a map. Each line remembers the file it came from
 * (its place in `files`), so that one index of the vault's own files serves every post-image (`holds` is told which
 * of those files the post-image no longer has as they were).
 */
/** A fact line's distinct words, in order (the written index's lines recur in every judged post-image). */
const lineWords = new Map<string, readonly string[]>();
/** Look-ups a `FactLines` answers by reading every line before it makes its word index. */
const FACT_SCANS = 16;
class FactLines {
  private readonly lines: string[] = [];
  /** Per line, the place of its file in the constructor's `files`. */
  private readonly owner: number[] = [];
  /** A fact line → one of its places (the lookup is a shortcut: the word index finds every line too). */
  private readonly exact = new Map<string, number>();
  /** Word → the places of the lines holding it, ascending; made when a look-up first needs it. */
  private words: Map<string, number[]> | null = null;
  private scans = 0;
  constructor(files: readonly VaultFile[]) {
    files.forEach((f, file) => {
      for (const line of factsOf(f).split('\n')) {
        if (line === '') continue;
        const at = this.lines.push(line) - 1;
        this.owner.push(file);
        if (!this.exact.has(line)) this.exact.set(line, at);
      }
    });
  }
  /**
   * The word index, made when the exact lines and the first FACT_SCANS scans have not answered: most removed lines
   * are found whole (a line moved or relinked), and each judged post-image's written files (its index among them)
   * make a `FactLines` of their own.
   */
  private get postings(): Map<string, number[]> {
    if (this.words) return this.words;
    count('apply.factLineIndexes');
    const postings = new Map<string, number[]>();
    if (lineWords.size > 200_000) lineWords.clear();
    this.lines.forEach((line, at) => {
      let words = lineWords.get(line);
      if (words === undefined) lineWords.set(line, (words = [...new Set(line.split(' '))]));
      for (const w of words) {
        const list = postings.get(w);
        if (list) list.push(at);
        else postings.set(w, [at]);
      }
    });
    return (this.words = postings);
  }
  /** Whether one line holds every part in order (a line of a file `gone` is true of is not looked at). */
  holds(parts: readonly string[], gone?: (file: number) => boolean): boolean {
    const hit = this.exact.get(parts.join(' '));
    if (hit !== undefined && !gone?.(this.owner[hit]!)) return true;
    // The first few look-ups the exact lines miss read every line; past that the word index is made and used.
    if (this.words === null && this.scans < FACT_SCANS) {
      this.scans++;
      count('apply.factLineTests', this.lines.length);
      return this.lines.some((l, i) => !gone?.(this.owner[i]!) && holdsInOrder(l, parts));
    }
    const lists: number[][] = [];
    const seen = new Set<string>();
    for (const p of parts) {
      const words = p.split(' ');
      for (let i = 1; i < words.length - 1; i++) {
        const w = words[i]!;
        if (seen.has(w)) continue;
        seen.add(w);
        lists.push(this.postings.get(w) ?? []);
      }
    }
    if (lists.length === 0) {
      count('apply.factLineTests', this.lines.length);
      return this.lines.some((l, i) => !gone?.(this.owner[i]!) && holdsInOrder(l, parts));
    }
    lists.sort((x, y) => x.length - y.length);
    const [best, ...others] = lists.slice(0, 3) as [number[], ...number[][]];
    count('apply.factLineCandidates', best.length);
    for (const i of best) {
      if (!others.every((o) => sortedHas(o, i))) continue;
      if (gone?.(this.owner[i]!)) continue;
      count('apply.factLineTests');
      if (holdsInOrder(this.lines[i]!, parts)) return true;
    }
    return false;
  }
}

/**
 * The fact lines of a vault's own files, built once per vault (when a gate run first needs them) and shared by the
 * post-images of all its trials: a post-image keeps most files as they were, and those files' lines are the same
 * lines (a file's fact lines are a function of its text). Before this, each judged post-image indexed all its files
 * again, or scanned them all for each of its first 16 removed lines.
 */
const vaultFacts = new WeakMap<Vault, FactLines>();
const vaultFactsOf = (vault: Vault): FactLines =>
  vaultFacts.get(vault) ?? (vaultFacts.set(vault, new FactLines(vault.files)), vaultFacts.get(vault)!);

/**
 * Whether a line of the post-image's files that it has as the vault has them (same path, same text) holds the
 * parts, through the vault's index. The post-image's other files are the files the run writes (`postImage` takes
 * every file no change names from the vault), which `lostIndexText` looks at first.
 */
function keptFacts(vault: Vault, post: Vault): (parts: readonly string[]) => boolean {
  const kept = new Set<VaultFile>();
  for (const f of post.files) {
    const own = vault.byPath.get(f.path);
    if (own !== undefined && own.text === f.text) kept.add(own);
  }
  const base = vaultFactsOf(vault);
  const gone = (file: number): boolean => !kept.has(vault.files[file]!);
  return (parts) => base.holds(parts, gone);
}

/** Whether an ascending list holds `x` (binary search). */
function sortedHas(list: readonly number[], x: number): boolean {
  let lo = 0,
    hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * A file's lines' fact texts, joined by line breaks. Memoized per bytes object (the post-image of
 * every gate trial shares the bytes of the files it leaves unchanged) and checked against the text;
 * lines are memoized too (an edited index keeps most of its lines).
 */
const factsMemo = new WeakMap<Uint8Array, { readonly text: string; readonly facts: string }>();
const lineFacts = new Map<string, string>();
function factsOf(file: VaultFile): string {
  const hit = factsMemo.get(file.bytes);
  if (hit && hit.text === file.text) return hit.facts;
  if (lineFacts.size > 200_000) lineFacts.clear();
  const facts = file.text
    .split('\n')
    .map((line) => {
      let f = lineFacts.get(line);
      if (f === undefined) lineFacts.set(line, (f = factText(line)));
      return f;
    })
    .join('\n');
  factsMemo.set(file.bytes, { text: file.text, facts });
  return facts;
}

/** An index file's links other than mentions, by line (memoized per file). */
const linksMemo = new WeakMap<VaultFile, ReadonlyMap<number, Link[]>>();
function linksByLine(file: VaultFile): ReadonlyMap<number, Link[]> {
  let m = linksMemo.get(file);
  if (!m) {
    const byLine = new Map<number, Link[]>();
    for (const l of file.links) {
      if (l.kind === 'mention') continue;
      const list = byLine.get(l.line);
      if (list) list.push(l);
      else byLine.set(l.line, [l]);
    }
    linksMemo.set(file, (m = byLine));
  }
  return m;
}

/** `line.replace(/\r$/, '')` without a regex: 9,000 index lines twice per judged post-image on the hard shape. */
const withoutCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** Text of removed index lines found nowhere in the post-image (pointer lines to deleted notes excepted). */
export function lostIndexText(vault: Vault, post: Vault, changes: readonly FileChange[]): LostLine[] {
  const deleted = new Set(changes.filter((c) => !c.after).map((c) => c.path));
  const changed = changes.filter((c) => c.before && c.after && !c.path.startsWith('.memlint/'));
  const indexes = [vault.index, ...vault.secondaryIndexes].filter(
    (f): f is VaultFile => f !== null && changed.some((c) => c.path === f.path),
  );
  if (indexes.length === 0) return [];
  // A removed line's text is looked for first in the files the run writes (where a moved, relinked or unlinked
  // line goes), then in the files it leaves as they were, through the vault's word index (keptFacts).
  const written = changes
    .filter((c) => c.after && !c.path.startsWith(`${HOLDING}/`) && !c.path.startsWith('.memlint/'))
    .map((c) => post.byPath.get(c.path))
    .filter((f): f is VaultFile => f !== undefined);
  let local: FactLines | null = null;
  let facts: ((parts: readonly string[]) => boolean) | null = null;
  const found = (parts: readonly string[]): boolean =>
    (local ??= new FactLines(written)).holds(parts) || (facts ??= keptFacts(vault, post))(parts);
  const out: LostLine[] = [];
  for (const file of indexes) {
    const after = post.byPath.get(file.path);
    const remaining = new Map<string, number>();
    for (const raw of (after ? after.text : '').split('\n')) {
      const l = withoutCr(raw);
      remaining.set(l, (remaining.get(l) ?? 0) + 1);
    }
    const lines = file.text.split('\n');
    lines.forEach((raw, i) => {
      const line = withoutCr(raw);
      const n = remaining.get(line) ?? 0;
      if (n > 0) {
        remaining.set(line, n - 1);
        return;
      }
      const parts = factParts(line);
      const text = parts.join(' ');
      if (text === '' || /^[#>|:\-=*_\s`]*$/.test(text)) return;
      const links = linksByLine(file).get(i + 1) ?? [];
      if (links.length > 0 && links.every((l) => l.resolved !== null && deleted.has(l.resolved))) return;
      if (!found(parts)) out.push({ file: file.path, line: i + 1, text: line });
    });
  }
  return out;
}

interface GateResult {
  readonly newErrors: Finding[];
  readonly lost: LostLine[];
}

/**
 * Verdicts by vault and by the plan's changes: a verdict is a function of the vault and of each change's path,
 * whether it had a before, and its after (bytes and mode), in order (postImage and lostIndexText read nothing
 * else of a change). The gate meets the same changes more than once: the first group it tries is the whole plan,
 * and consolidate's next round (withhold.ts) plans the items the last round kept, which that round judged.
 */
const verdicts = new WeakMap<Vault, Map<string, GateResult>>();
const changesKey = (changes: readonly FileChange[]): string =>
  changes
    .map((c) => `${c.path}\0${c.before ? 1 : 0}\0${c.after ? `${c.after.mode}\0${sha1Base64(c.after.bytes)}` : '-'}`)
    .join('\n');

function judge(vault: Vault, baseline: ReadonlyMap<string, number>, plan: Plan): GateResult {
  if (plan.changes.length === 0) return { newErrors: [], lost: [] };
  let memo = verdicts.get(vault);
  if (!memo) verdicts.set(vault, (memo = new Map()));
  const key = changesKey(plan.changes);
  const known = memo.get(key);
  if (known) return known;
  const verdict = judgeChanges(vault, baseline, plan);
  memo.set(key, verdict);
  return verdict;
}

function judgeChanges(vault: Vault, baseline: ReadonlyMap<string, number>, plan: Plan): GateResult {
  count('apply.gateJudged');
  const post = postImage(vault, plan.changes);
  // The baseline: the cross-file rules' errors on the vault, and the file rules' on the files the plan changes. A
  // file it leaves as it was has the same file-rule findings on both sides: they would match one another by key
  // (rule, file, message) and change neither what is left nor what is new, so neither side computes them.
  const unchanged = unchangedIn(vault, post);
  const skip = skippingUnchanged(memoOf(vault), unchanged);
  const left = new Map(baseline);
  for (const f of errorsOf(
    changedOnly(vault, unchanged),
    gateRules(vault).filter((r) => r.checkFile),
    skip,
  ))
    addKey(left, f);
  // The post-image's cross-file rules over all of it, its file rules over the files the plan changes: one list in
  // the order one run of all its rules gives (findings that compare equal are of one rule, in its order).
  const rules = gateRules(post);
  const found = [
    ...errorsOf(
      post,
      rules.filter((r) => !r.checkFile),
      skip,
    ),
    ...findingsOf(
      changedOnly(post, unchanged),
      rules.filter((r) => r.checkFile),
      skip,
    ),
  ].sort(compareFindings);
  const unmatched: Finding[] = [];
  for (const f of found) {
    const n = left.get(errorKey(f)) ?? 0;
    if (n > 0) left.set(errorKey(f), n - 1);
    else unmatched.push(f);
  }
  // An error the run moved from one file to another (a section of index lines moved byte for byte into the
  // note a split creates, its dead link with it) was there before: matched by rule and message alone.
  const moved = new Map<string, number>();
  if (unmatched.length > 0)
    for (const [k, n] of left) if (n > 0) moved.set(looseOf(k), (moved.get(looseOf(k)) ?? 0) + n);
  const newErrors: Finding[] = [];
  for (const f of unmatched) {
    const k = looseOf(errorKey(f));
    const n = moved.get(k) ?? 0;
    if (n > 0) moved.set(k, n - 1);
    else newErrors.push(f);
  }
  return { newErrors, lost: lostIndexText(vault, post, plan.changes) };
}

const failed = (v: GateResult): boolean => v.newErrors.length > 0 || v.lost.length > 0;

function reasonOf(v: GateResult): string {
  const parts: string[] = [];
  if (v.newErrors.length) {
    const shown = v.newErrors
      .slice(0, 3)
      .map((f) => `${f.ruleId} ${f.file}:${f.line}: ${f.message}`)
      .join('; ');
    parts.push(
      `post-state check: would add ${v.newErrors.length} error finding${v.newErrors.length > 1 ? 's' : ''} (${shown}${v.newErrors.length > 3 ? '; …' : ''})`,
    );
  }
  if (v.lost.length) {
    const shown = v.lost
      .slice(0, 2)
      .map(
        (l) => `${l.file} line ${l.line} ${JSON.stringify(l.text.length > 80 ? `${l.text.slice(0, 77)}...` : l.text)}`,
      )
      .join('; ');
    parts.push(
      `post-state check: would leave the text of ${v.lost.length} removed index line${v.lost.length > 1 ? 's' : ''} nowhere in the vault (${shown}${v.lost.length > 2 ? '; …' : ''})`,
    );
  }
  return parts.join('; ');
}

const only = (proposal: Proposal, ids: ReadonlySet<string>): Proposal => ({
  ...proposal,
  items: proposal.items.map((i) =>
    i.decision === 'approve' && !ids.has(i.id) ? { ...i, decision: 'reject' as const } : i,
  ),
});

/** planApply, then the post-state gate: the plan returned writes nothing the gate refused. */
export function gatedPlan(
  proposal: Proposal,
  vault: Vault,
  runId: string,
  options: GateOptions = {},
): { plan: Plan; gate: GateReport } {
  // The file system does not change while the gate plans its trials: each path is checked once, each action run once.
  const paths: PathMemo = new Map();
  const actions: ActionMemo = new WeakMap();
  const plan = planApply(proposal, vault, runId, { paths, actions });
  const empty: GateReport = { newErrors: [], lost: [], refused: new Map(), overridden: false };
  if (plan.changes.length === 0) return { plan: allOrNothing(plan, options), gate: empty };
  const baseline = baselineOf(vault);
  const whole = judge(vault, baseline, plan);
  if (!failed(whole)) return { plan: allOrNothing(plan, options), gate: empty };
  if (options.allowNewErrors)
    return { plan: allOrNothing(plan, options), gate: { ...whole, refused: new Map(), overridden: true } };

  // Which items: add them in order, a group at a time; a group that fails is split until one item is left.
  const candidates = plan.items.filter((i) => i.status === 'run').map((i) => i.id);
  const accepted = new Set<string>();
  const refused = new Map<string, string>();
  // Verdicts by the set of items tried (a trial's plan is a function of it, within this call): when the first half
  // of a failing group passes, the second half's trial is the failing group's again, and is not planned or judged.
  const judged = new Map<string, GateResult>();
  const tryGroup = (group: readonly string[]): void => {
    if (group.length === 0) return;
    const trial = new Set([...accepted, ...group]);
    const key = candidates.filter((id) => trial.has(id)).join('\n');
    let verdict = judged.get(key);
    if (!verdict) {
      count('apply.gateTrials');
      verdict = judge(vault, baseline, planApply(only(proposal, trial), vault, runId, { paths, actions }));
      judged.set(key, verdict);
    }
    if (!failed(verdict)) {
      for (const id of group) accepted.add(id);
      return;
    }
    if (group.length === 1) {
      refused.set(group[0]!, reasonOf(verdict));
      return;
    }
    const half = Math.ceil(group.length / 2);
    tryGroup(group.slice(0, half));
    tryGroup(group.slice(half));
  };
  tryGroup(candidates);
  const final = planApply(only(proposal, accepted), vault, runId, { paths, actions });
  const items: ItemOutcome[] = final.items.map((o) => {
    const why = refused.get(o.id);
    if (why) return { ...o, status: 'refused', reason: why, warnings: [] };
    const was = plan.items.find((p) => p.id === o.id);
    return o.status === 'skipped' && was && was.status !== 'run' ? was : o;
  });
  return { plan: allOrNothing({ ...final, items }, options), gate: { ...whole, refused, overridden: false } };
}

function allOrNothing(plan: Plan, options: GateOptions): Plan {
  if (!options.allOrNothing || !plan.items.some((o) => o.status === 'refused')) return plan;
  return {
    ...plan,
    changes: [],
    items: plan.items.map((o) =>
      o.status === 'run' || o.status === 'done'
        ? { ...o, status: 'skipped', reason: '--all-or-nothing: another approved item was refused' }
        : o,
    ),
  };
}

export function describeGate(gate: GateReport): string {
  if (gate.overridden) {
    const v = { newErrors: [...gate.newErrors], lost: [...gate.lost] };
    return `--allow-new-errors: the gate refused nothing, although ${reasonOf(v).replace(/post-state check: /g, '')}\n${gate.newErrors.map((f) => `  new ${f.severity}: ${f.ruleId} ${f.file}:${f.line}: ${f.message}\n`).join('')}${gate.lost.map((l) => `  lost: ${l.file} line ${l.line}: ${l.text}\n`).join('')}`;
  }
  if (gate.refused.size === 0) return '';
  return `post-state check: refused ${gate.refused.size} item${gate.refused.size > 1 ? 's' : ''} that would add error findings or lose index text (--allow-new-errors to apply them anyway)\n`;
}
