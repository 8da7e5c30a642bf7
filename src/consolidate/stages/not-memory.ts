/**
 * What should not be memory (issue 19): the memory/… rules' findings, each turned into a fix —
 * retire a note that is all copy, dump, duplicate or residue; else trim it to the rule it teaches.
 * The rules' own functions decide; a rule turned off, or a note reviewed for it, is left alone.
 */
import { homedir } from 'node:os';
import type { Vault } from '../../vault/model.js';
import { ContextSentences, contextDuplicates } from '../../rules/memory/duplicates-context-file.js';
import { contextFiles } from '../../rules/memory/context-files.js';
import dataDumpRule, { dumpsIn } from '../../rules/memory/data-dump.js';
import duplicatesRule from '../../rules/memory/duplicates-context-file.js';
import restatesRule, { restatements } from '../../rules/memory/restates-project.js';
import residueRule, { distinctHits, residueUnits } from '../../rules/memory/session-residue.js';
import { unitsOf, type Unit } from '../../rules/memory/units.js';
import type { Rule } from '../../rules/types.js';
import { defineStage, type ItemDraft } from '../stage.js';

/** The rule's options from the config (defaults when absent or invalid), or null when it is off. */
function optionsOf<O>(vault: Vault, rule: Rule<O>): O | null {
  const setting = vault.config.rules[rule.id];
  if (setting === 'off' || (typeof setting === 'object' && setting.severity === 'off')) return null;
  const raw = typeof setting === 'object' ? (setting.options ?? {}) : {};
  const parsed = rule.meta.options?.safeParse(raw) ?? rule.meta.options?.safeParse({});
  return parsed?.success ? parsed.data : (rule.meta.options!.parse({}) as O);
}

interface Reason {
  readonly rule: string;
  readonly detail: string;
  readonly share: number;
  readonly trim: readonly { readonly line: number; readonly text: string }[];
}

const RETIRE_AT = 0.9;
const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

export default defineStage({
  id: 'not-memory',
  description:
    'Notes that should not be memory: copies of the project or its history, copies of a context file, data dumps, one-session residue. Retire the note, or trim it to the rule it teaches.',
  run(ctx) {
    const { vault } = ctx;
    const reviewed = (file: string, rule: string): boolean =>
      vault.config.reviewed.some((r) => r.file === file && r.rule === rule);
    const reasons = new Map<string, { unit: Unit; reasons: Reason[] }>();
    const add = (unit: Unit, r: Reason): void => {
      if (reviewed(unit.file.path, r.rule)) return;
      const e = reasons.get(unit.label);
      if (e) e.reasons.push(r);
      else reasons.set(unit.label, { unit, reasons: [r] });
    };
    const units = vault.files.flatMap(unitsOf);
    let skipped: string | null = null;
    const dumpOpts = optionsOf(vault, dataDumpRule);
    if (dumpOpts) {
      for (const { unit, m } of dumpsIn(units, dumpOpts)) {
        add(unit, {
          rule: dataDumpRule.id,
          detail: `${Math.round((100 * m.dumpChars) / m.chars)}% code, logs, traces or tables`,
          share: m.dumpChars / m.chars,
          trim: [{ line: unit.file.position(m.first).line, text: 'the code, log, trace and table lines' }],
        });
      }
    }
    const residueOpts = optionsOf(vault, residueRule);
    if (residueOpts) {
      // Each file's normalized view is read once here: not kept on the file (the memo is check's, for its rules).
      for (const { unit, hits } of residueUnits(units, residueOpts, false)) {
        const d = distinctHits(hits);
        add(unit, {
          rule: residueRule.id,
          detail: `${d.length} one-session details`,
          share: 0,
          trim: d.map((h) => ({ line: unit.file.position(h.offset).line, text: clip(h.text) })),
        });
      }
    }
    const dupOpts = optionsOf(vault, duplicatesRule);
    if (dupOpts) {
      const home = dupOpts.home === undefined ? homedir() : dupOpts.home;
      const sentences = new ContextSentences(contextFiles(vault, home, ctx.root ?? undefined), dupOpts);
      for (const d of contextDuplicates(vault.files, sentences, dupOpts)) {
        if (d.unit === null) continue; // an index line: index-overflow and fix-index own index rewrites
        const first = d.matches[0]!.place;
        add(d.unit, {
          rule: duplicatesRule.id,
          detail: `${d.matches.length} of ${d.total} sentences are in ${first.file.label}:${first.line}`,
          share: d.matches.length / d.total,
          trim: d.matches.map((m) => ({ line: m.sentence.line, text: clip(m.sentence.text) })),
        });
      }
    }
    const restOpts = optionsOf(vault, restatesRule);
    if (restOpts) {
      const r = restatements(vault, restOpts, ctx.root ?? undefined);
      if (r.skipped) skipped = r.skipped;
      for (const f of r.found)
        add(f.unit, {
          rule: restatesRule.id,
          detail: `restates ${f.restated.map((x) => x.what).join('; ')}`,
          share: f.share,
          trim: f.restated.map((x) => ({ line: f.file.position(x.offset).line, text: x.what })),
        });
    }
    const items: ItemDraft[] = [];
    for (const [label, { reasons: rs }] of [...reasons].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const retire = rs.some((r) => r.share >= RETIRE_AT);
      const evidence = {
        rules: rs.map((r) => r.rule),
        reasons: rs.map((r) => `${r.rule}: ${r.detail}`),
        ...(retire ? {} : { trim: rs.flatMap((r) => r.trim) }),
      };
      items.push(
        retire
          ? {
              kind: 'not-memory',
              paths: [label],
              evidence,
              suggestion: 'retire',
              action: { type: 'retire', retire: [label] },
            }
          : { kind: 'not-memory', paths: [label], evidence, suggestion: 'review', action: { type: 'keep' } },
      );
    }
    // restates-project needs the project root: without one it is skipped, and the skip is counted here.
    ctx.summary.notMemory = { items: items.length, ...(skipped ? { restatesProjectSkipped: skipped } : {}) };
    return items;
  },
});
