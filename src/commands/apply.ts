import { readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { executeChanges, listRuns, newRunId } from '../apply/execute.js';
import { Lock, RunStore } from '../apply/journal.js';
import { describeGate, gatedPlan } from '../apply/gate.js';
import { formatPlan } from '../apply/format-plan.js';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import { manifestOf } from '../proposal/refs.js';
import type { Proposal } from '../proposal/schema.js';
import type { Vault } from '../vault/model.js';
import type { IO } from '../io.js';
import { parseProposal } from '../proposal/yaml.js';
import { parseCommandArgs } from '../util/args.js';
import { ProposalError, UsageError } from '../util/errors.js';
import { existingVault, STATE_DIR } from '../util/state-dir.js';
import { loadVault } from '../vault/load.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('apply', args, {
    execute: { type: 'boolean' },
    'all-or-nothing': { type: 'boolean' },
    'allow-new-errors': { type: 'boolean' },
    vault: { type: 'string' },
    config: { type: 'string', short: 'c' },
  });
  if (!positionals[0]) throw new UsageError('apply: which proposal? memlint apply PROPOSAL [--execute]');
  const file = resolve(io.cwd, positionals[0]);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ProposalError(
      `cannot read proposal ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  const proposal = parseProposal(text, file);
  const { root, fromField } = vaultOf(
    proposal,
    file,
    values.vault === undefined ? undefined : resolve(io.cwd, values.vault),
  );
  const { config } = await loadConfig(root, values.config ? resolve(io.cwd, values.config) : undefined, knownRuleIds);
  const options = {
    allOrNothing: Boolean(values['all-or-nothing']),
    allowNewErrors: Boolean(values['allow-new-errors']),
  };
  if (fromField) checkFieldVault(proposal, file, loadVault(root, { config }));
  if (!values.execute) {
    const { plan, gate } = gatedPlan(proposal, loadVault(root, { config }), '<run-id>', options);
    io.stdout.write(formatPlan(plan, { dryRun: true }));
    io.stdout.write(describeGate(gate));
    return plan.items.some((i) => i.status === 'refused') ? 1 : 0;
  }
  const store = new RunStore(root);
  store.refuseIfInterrupted();
  const lock = Lock.acquire(root, 'apply');
  try {
    // Planned again under the lock, against the vault as it is now.
    const { plan, gate } = gatedPlan(proposal, loadVault(root, { config }), newRunId(), options);
    if (plan.changes.length > 0)
      executeChanges(root, plan.runId, plan.changes, { kind: 'apply', items: plan.items, proposal: file });
    io.stdout.write(formatPlan(plan, { dryRun: false }));
    io.stdout.write(describeGate(gate));
    io.stdout.write(
      plan.changes.length
        ? `run id: ${plan.runId} (undo with: memlint undo ${plan.runId} --vault ${root})\n`
        : 'nothing changed; no run recorded\n',
    );
    return plan.items.some((i) => i.status === 'refused') ? 1 : 0;
  } finally {
    lock.release();
  }
}

/**
 * The vault a proposal is applied to: the one on the command line (--vault), else the vault whose
 * `.memlint/proposals/` holds the proposal, else the proposal's `vault:` field, which is only text in
 * a file anyone may edit: resolved against the proposal's own folder, never created, and then
 * accepted only for the notes the proposal was written from (checkFieldVault).
 */
function vaultOf(proposal: Proposal, file: string, given: string | undefined): { root: string; fromField: boolean } {
  if (given !== undefined) return { root: existingVault(given), fromField: false };
  const parts = dirname(file).split(sep);
  const at = parts.lastIndexOf(STATE_DIR);
  if (at > 0 && parts[at + 1] === 'proposals')
    return { root: existingVault(parts.slice(0, at).join(sep) || sep), fromField: false };
  const root = resolve(dirname(file), proposal.vault);
  try {
    existingVault(root);
  } catch {
    throw new ProposalError(
      `the proposal's vault: ${proposal.vault} is not a folder; give the vault with --vault VAULT`,
    );
  }
  return { root, fromField: true };
}

/** A `vault:` field is believed only when that vault holds the notes the proposal was made from, or has applied it before. */
function checkFieldVault(proposal: Proposal, file: string, vault: Vault): void {
  if (manifestOf(vault) === proposal.manifest) return;
  if (listRuns(vault.root).some((r) => r.proposal === file && r.kind === 'apply')) return;
  throw new ProposalError(
    `the proposal's vault: ${proposal.vault} does not hold the notes the proposal was written from (the manifest differs); if it is the right vault, say so with --vault ${join(vault.root)}`,
  );
}
