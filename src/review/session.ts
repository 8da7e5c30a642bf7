/** The review session: one pending item at a time, a person marks it, the mark is saved at once. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parseDocument, type Document } from 'yaml';
import type { IO } from '../io.js';
import { parseEntryPath, refKey } from '../proposal/refs.js';
import type { Proposal, ProposalItem } from '../proposal/schema.js';
import { writeFileAtomic } from '../util/atomic.js';
import type { Vault } from '../vault/model.js';
import type { Judge, JudgeItem, Verdict } from './judge.js';
import { maskSecrets, maskSecretsDeep } from '../rules/security/secret.js';

function noteText(vault: Vault, n: ProposalItem['notes'][number]): string {
  if (n.entry) return vault.stores.find((s) => s.file === n.path)?.entries[n.entry - 1]?.text ?? '(missing)';
  return vault.byPath.get(n.path)?.text ?? '(missing)';
}

export function judgeItem(vault: Vault, item: ProposalItem): JudgeItem {
  // The model is a third party: it reads the notes with their credentials masked (apply puts back a
  // masked credential a merged body it drafts carries).
  return {
    kind: item.kind,
    suggestion: item.suggestion,
    evidence: maskSecretsDeep(item.evidence),
    notes: item.notes.map((n) => maskSecrets(noteText(vault, n))),
  };
}

const paint = (on: boolean, code: number, s: string): string => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
/** Notes longer than this are cut on screen; `v` shows them whole in the pager. */
const NOTE_LINES = 12;
const DIFF_LINES = 40;

function clip(lines: readonly string[], max: number): { shown: string[]; cut: number } {
  return lines.length <= max ? { shown: [...lines], cut: 0 } : { shown: lines.slice(0, max), cut: lines.length - max };
}

/** Evidence as labelled fields: one `label: value` per line, nested objects indented. */
export function evidenceLines(evidence: unknown, indent = '  '): string[] {
  if (evidence === null || typeof evidence !== 'object') return [`${indent}${String(evidence)}`];
  const entries = Object.entries(evidence as Record<string, unknown>);
  const width = Math.max(0, ...entries.map(([k]) => k.length)) + 1;
  const out: string[] = [];
  for (const [k, v] of entries) {
    const label = `${indent}${`${k}:`.padEnd(width)} `;
    if (v === null || typeof v !== 'object') out.push(`${label}${String(v)}`);
    else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))
      out.push(`${label}${v.length ? v.join(', ') : '(none)'}`);
    else if (Array.isArray(v)) {
      out.push(`${indent}${k}:`);
      for (const x of v.slice(0, 5))
        out.push(
          `${indent}  - ${
            x && typeof x === 'object'
              ? Object.entries(x as Record<string, unknown>)
                  .map(([a, b]) => `${a}: ${typeof b === 'object' ? JSON.stringify(b) : String(b)}`)
                  .join(', ')
              : String(x)
          }`,
        );
      if (v.length > 5) out.push(`${indent}  … and ${v.length - 5} more`);
    } else {
      out.push(`${indent}${k}:`, ...evidenceLines(v, `${indent}  `));
    }
  }
  return out;
}

/** The index lines an item removes or adds, each with a line of context, highlighted; long runs folded. */
function indexLines(
  vault: Vault,
  file: string,
  remove: readonly { line: number; text: string }[],
  add: readonly string[],
  color: boolean,
  rewrite: readonly { line: number; with: string }[] = [],
): string[] {
  const text = vault.byPath.get(file)?.text ?? '';
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const removed = new Set([...remove, ...rewrite].map((r) => r.line));
  const replaced = new Map(rewrite.map((r) => [r.line, r.with]));
  const show = new Set<number>();
  for (const r of [...remove, ...rewrite])
    for (const n of [r.line - 1, r.line, r.line + 1]) if (n >= 1 && n <= lines.length) show.add(n);
  const out: string[] = [`  ${file}:`];
  const ordered = [...show].sort((a, b) => a - b);
  const width = String(lines.length + 1).length;
  const row = (n: number): string => {
    const body = lines[n - 1] ?? '';
    const now = replaced.get(n);
    if (now !== undefined)
      return `${paint(color, 31, `  ${String(n).padStart(width)} - ${body}`)}\n${paint(color, 32, `  ${' '.repeat(width)} + ${now}`)}`;
    return removed.has(n)
      ? paint(color, 31, `  ${String(n).padStart(width)} - ${body}`)
      : paint(color, 2, `  ${String(n).padStart(width)}   ${body}`);
  };
  let prev = 0;
  let run: number[] = [];
  const flush = (): void => {
    const removedRun = run.filter((n) => removed.has(n));
    if (removedRun.length > 8) {
      const head = run.slice(0, run.indexOf(removedRun[2]!) + 1);
      const tail = run.slice(run.indexOf(removedRun.at(-2)!));
      out.push(
        ...head.map(row),
        paint(color, 2, `  ${' '.repeat(width)}   … ${removedRun.length - 4} more lines removed …`),
        ...tail.map(row),
      );
    } else {
      out.push(...run.map(row));
    }
    run = [];
  };
  for (const n of ordered) {
    if (prev && n !== prev + 1) {
      flush();
      out.push(paint(color, 2, `  ${' '.repeat(width)}   ⋮`));
    }
    run.push(n);
    prev = n;
  }
  flush();
  for (const a of add)
    out.push(paint(color, 32, `  ${' '.repeat(width)} + ${a}`) + paint(color, 2, '   (added at the end)'));
  return out;
}

/** What one item is about, on one screen: the lines in question, never a whole index. */
export function show(vault: Vault, item: ProposalItem, position: string, color = false): string {
  // Screens are read over shoulders and land in scrollback: credentials are masked, as check masks them.
  return maskSecrets(screen(vault, item, position, color));
}

function screen(vault: Vault, item: ProposalItem, position: string, color: boolean): string {
  const out = [
    `\n${paint(color, 1, `${position} ${item.id}`)} ${item.kind} — suggested: ${item.suggestion} (${item.action.type})`,
  ];
  const names = item.notes.map((n) => (n.entry ? `${n.path} entry ${n.entry}` : n.path));
  const isIndex = (path: string): boolean =>
    vault.byPath.get(path)?.role === 'index' || path === vault.config.index.file;
  if (item.kind === 'near-duplicate' && item.notes.length >= 2) {
    for (let i = 1; i < item.notes.length; i++) {
      const diff = createTwoFilesPatch(
        names[0]!,
        names[i]!,
        noteText(vault, item.notes[0]!),
        noteText(vault, item.notes[i]!),
        'kept',
        'retired',
      )
        .split('\n')
        .slice(2);
      const { shown, cut } = clip(diff, DIFF_LINES);
      out.push(
        ...shown.map((l) =>
          l.startsWith('+')
            ? paint(color, 32, l)
            : l.startsWith('-')
              ? paint(color, 31, l)
              : l.startsWith('@@')
                ? paint(color, 36, l)
                : l,
        ),
      );
      if (cut) out.push(paint(color, 2, `… ${cut} more diff lines (v: view the notes in the pager)`));
    }
  } else if (item.kind === 'contradiction') {
    for (const c of (
      item.evidence as { conflicts?: { kind: string; detail: string; a: { text: string }; b: { text: string } }[] }
    ).conflicts ?? []) {
      out.push(
        `  ${c.kind}: ${c.detail}`,
        `  ${names[0]}: » ${paint(color, 33, c.a.text)} «`,
        `  ${names[1]}: » ${paint(color, 33, c.b.text)} «`,
      );
    }
  } else {
    for (const [i, n] of item.notes.entries()) {
      if (isIndex(n.path)) continue; // its lines in question are shown below
      const { shown, cut } = clip(noteText(vault, n).trimEnd().split('\n'), NOTE_LINES);
      out.push(paint(color, 1, `--- ${names[i]} ---`), ...shown.map((l) => `  ${l}`));
      if (cut) out.push(paint(color, 2, `  … ${cut} more lines (v: view the whole note in the pager)`));
    }
    if (item.action.type === 'fix-index')
      out.push(
        ...indexLines(vault, item.action.file, item.action.remove, item.action.add, color, item.action.replace ?? []),
      );
    if (item.action.type === 'split-index') {
      // The lines each section leaves (moved byte for byte into the note named), and the pointers left in their place.
      const moved = item.action.moves.flatMap((m) => m.lines.map((text, k) => ({ line: m.from + k, text })));
      out.push(
        ...indexLines(
          vault,
          item.action.file,
          moved,
          item.action.moves
            .filter((m) => m.pointer)
            .map(
              (m) =>
                `${m.pointer}   (in place of lines ${m.from}-${m.from + m.lines.length - 1}; they move to ${m.note})`,
            ),
          color,
        ),
      );
    }
    out.push(paint(color, 1, 'evidence:'), ...evidenceLines(item.evidence));
  }
  return out.join('\n');
}

/** Every note of an item in full, for the pager. */
function fullText(vault: Vault, item: ProposalItem): string {
  return item.notes
    .map((n) => `=== ${n.entry ? `${n.path} entry ${n.entry}` : n.path} ===\n${noteText(vault, n).trimEnd()}\n`)
    .join('\n');
}

/**
 * The items the proposal shows for information only (not approvable), counted per kind, for the
 * top of a review session: '' when there are none.
 */
export function infoSummary(proposal: Proposal): string {
  const info = proposal.info ?? [];
  if (info.length === 0) return '';
  const perKind = new Map<string, number>();
  for (const i of info) perKind.set(i.kind, (perKind.get(i.kind) ?? 0) + 1);
  return `${info.length} more item(s) are shown for information only, not proposed (${[...perKind].map(([k, n]) => `${k} ${n}`).join(', ')}): they cannot be approved here. Read them under \`info:\` in the proposal or in \`memlint report PROPOSAL --html FILE\`.\n`;
}

/** `skipped` items stay pending: `pending` counts them, with the items not reached. */
export interface SessionResult {
  readonly approved: number;
  readonly rejected: number;
  readonly skipped: number;
  readonly pending: number;
}

export async function reviewSession(
  file: string,
  proposal: Proposal,
  vault: Vault,
  io: IO,
  judge: Judge | null,
  concurrency: number,
): Promise<SessionResult> {
  const doc: Document = parseDocument(readFileSync(file, 'utf8'));
  const save = (): void => writeFileAtomic(file, doc.toString({ lineWidth: 0 }));
  const pending = proposal.items.map((item, index) => ({ item, index })).filter((x) => x.item.decision === 'pending');
  // The model reads items ahead of the person, a few at a time.
  const verdicts = new Map<number, Promise<Verdict>>();
  const ahead = (k: number): void => {
    if (!judge) return;
    for (let j = k; j < Math.min(pending.length, k + concurrency); j++) {
      const p = pending[j]!;
      if (!verdicts.has(p.index)) verdicts.set(p.index, judge.judge(judgeItem(vault, p.item)));
    }
  };
  let approved = 0,
    rejected = 0,
    skipped = 0;
  const color = Boolean(io.stdout.isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
  for (let k = 0; k < pending.length; k++) {
    const { item, index } = pending[k]!;
    ahead(k);
    io.stdout.write(show(vault, item, `[${k + 1}/${pending.length}]`, color) + '\n');
    const verdict = verdicts.has(index) ? await verdicts.get(index)! : null;
    if (verdict && judge) {
      io.stdout.write(`model (${judge.name}): ${verdict.verdict} — ${maskSecrets(verdict.reason)}\n`);
      doc.setIn(
        ['items', index, 'judge'],
        doc.createNode({
          verdict: verdict.verdict,
          reason: verdict.reason,
          model: judge.name,
          ...(verdict.mergedBody ? { mergedBody: verdict.mergedBody } : {}),
        }),
      );
      save();
    }
    for (;;) {
      const canEdit = item.action.type === 'merge';
      const question = `approve / reject / skip (stays pending) / view in pager${canEdit ? ' / edit merged body' : ''} / quit [a/r/s/v${canEdit ? '/e' : ''}/q]: `;
      const answer = io.key ? await io.key(question) : await io.ask!(question);
      const key = (answer ?? 'q').trim().toLowerCase()[0];
      if (io.key) io.stdout.write(`${key ?? 'q'}\n`);
      if (key === 'a' || key === 'r') {
        doc.setIn(['items', index, 'decision'], key === 'a' ? 'approve' : 'reject');
        save();
        if (key === 'a') approved++;
        else rejected++;
        break;
      }
      if (key === 's') {
        skipped++;
        break;
      }
      if (key === 'v') {
        const dir = mkdtempSync(join(tmpdir(), 'memlint-view-'));
        const tmp = join(dir, `${item.id}.md`);
        writeFileSync(tmp, fullText(vault, item));
        const pager = io.env.PAGER || 'less -R';
        spawnSync(`${pager} '${tmp.replace(/'/g, `'\\''`)}'`, { stdio: 'inherit', shell: true });
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (key === 'e' && canEdit && item.action.type === 'merge') {
        const dir = mkdtempSync(join(tmpdir(), 'memlint-merge-'));
        const tmp = join(dir, 'merged-note.md');
        const target = item.action.into;
        const into = item.notes.find((n) => refKey(n) === target) ?? item.notes[0]!;
        const file = vault.byPath.get(target);
        writeFileSync(
          tmp,
          verdict?.mergedBody ??
            (parseEntryPath(target) !== null ? noteText(vault, into) : file ? file.text.slice(file.bodyOffset) : ''),
        );
        const editor = io.env.VISUAL ?? io.env.EDITOR ?? 'vi';
        const r = spawnSync(editor, [tmp], { stdio: 'inherit', shell: true });
        if (r.status === 0) {
          doc.setIn(['items', index, 'action', 'body'], readFileSync(tmp, 'utf8'));
          save();
          io.stdout.write('merged body saved to the proposal\n');
        } else {
          io.stdout.write(`${editor} exited ${r.status}; the body was not changed\n`);
        }
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (key === 'q') {
        return { approved, rejected, skipped, pending: pending.length - approved - rejected };
      }
    }
  }
  return { approved, rejected, skipped, pending: pending.length - approved - rejected };
}
