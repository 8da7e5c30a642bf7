/** The review session: one pending item at a time, a person marks it, the mark is saved at once. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parseDocument, type Document } from 'yaml';
import type { IO } from '../io.js';
import { parseEntryPath } from '../vault/hermes.js';
import type { Proposal, ProposalItem } from '../proposal/schema.js';
import { writeFileAtomic } from '../util/atomic.js';
import type { Vault } from '../vault/model.js';
import type { Judge, JudgeItem, Verdict } from './judge.js';

function noteText(vault: Vault, n: ProposalItem['notes'][number]): string {
  if (n.entry) return vault.stores.find((s) => s.file === n.path)?.entries[n.entry - 1]?.text ?? '(missing)';
  return vault.byPath.get(n.path)?.text ?? '(missing)';
}

export function judgeItem(vault: Vault, item: ProposalItem): JudgeItem {
  return { kind: item.kind, suggestion: item.suggestion, evidence: item.evidence, notes: item.notes.map((n) => noteText(vault, n)) };
}

function show(vault: Vault, item: ProposalItem, position: string): string {
  const out = [`\n${position} ${item.id} ${item.kind} — suggested: ${item.suggestion} (${item.action.type})`];
  const names = item.notes.map((n) => (n.entry ? `${n.path} entry ${n.entry}` : n.path));
  if (item.kind === 'near-duplicate' && item.notes.length >= 2) {
    for (let i = 1; i < item.notes.length; i++) {
      out.push(createTwoFilesPatch(names[0]!, names[i]!, noteText(vault, item.notes[0]!), noteText(vault, item.notes[i]!), 'kept', 'retired').split('\n').slice(2).join('\n'));
    }
  } else if (item.kind === 'contradiction') {
    for (const c of ((item.evidence as { conflicts?: { kind: string; detail: string; a: { text: string }; b: { text: string } }[] }).conflicts ?? [])) {
      out.push(`  ${c.kind}: ${c.detail}`, `  ${names[0]}: » ${c.a.text} «`, `  ${names[1]}: » ${c.b.text} «`);
    }
  } else {
    for (const [i, n] of item.notes.entries()) out.push(`--- ${names[i]} ---`, noteText(vault, n).trimEnd());
    out.push(`evidence: ${JSON.stringify(item.evidence)}`);
  }
  return out.join('\n');
}

export interface SessionResult { readonly approved: number; readonly rejected: number; readonly skipped: number; readonly remaining: number }

export async function reviewSession(file: string, proposal: Proposal, vault: Vault, io: IO, judge: Judge | null, concurrency: number): Promise<SessionResult> {
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
  let approved = 0, rejected = 0, skipped = 0;
  for (let k = 0; k < pending.length; k++) {
    const { item, index } = pending[k]!;
    ahead(k);
    io.stdout.write(show(vault, item, `[${k + 1}/${pending.length}]`) + '\n');
    const verdict = verdicts.has(index) ? await verdicts.get(index)! : null;
    if (verdict && judge) {
      io.stdout.write(`model (${judge.name}): ${verdict.verdict} — ${verdict.reason}\n`);
      doc.setIn(['items', index, 'judge'], doc.createNode({ verdict: verdict.verdict, reason: verdict.reason, model: judge.name, ...(verdict.mergedBody ? { mergedBody: verdict.mergedBody } : {}) }));
      save();
    }
    for (;;) {
      const canEdit = item.action.type === 'merge';
      const answer = await io.ask!(`approve / reject / skip${canEdit ? ' / edit merged body' : ''} / quit [a/r/s${canEdit ? '/e' : ''}/q]: `);
      const key = (answer ?? 'q').trim().toLowerCase()[0];
      if (key === 'a' || key === 'r') {
        doc.setIn(['items', index, 'decision'], key === 'a' ? 'approve' : 'reject');
        save();
        if (key === 'a') approved++; else rejected++;
        break;
      }
      if (key === 's') { skipped++; break; }
      if (key === 'e' && canEdit && item.action.type === 'merge') {
        const dir = mkdtempSync(join(tmpdir(), 'memlint-merge-'));
        const tmp = join(dir, 'merged-note.md');
        const target = item.action.into;
        const into = item.notes.find((n) => (n.entry ? `${n.path}#${n.entry}` : n.path) === target) ?? item.notes[0]!;
        const file = vault.byPath.get(target);
        writeFileSync(tmp, verdict?.mergedBody ?? (parseEntryPath(target) !== null ? noteText(vault, into) : (file ? file.text.slice(file.bodyOffset) : '')));
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
        return { approved, rejected, skipped, remaining: pending.length - k };
      }
    }
  }
  return { approved, rejected, skipped, remaining: 0 };
}
