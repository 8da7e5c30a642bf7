import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { executeChanges, newRunId } from '../apply/execute.js';
import { Lock, RunStore } from '../apply/journal.js';
import { describeGate, gatedPlan } from '../apply/gate.js';
import { formatPlan } from '../apply/report.js';
import { loadConfig } from '../config/load.js';
import type { IO } from '../io.js';
import { parseProposal } from '../proposal/yaml.js';
import { parseCommandArgs } from '../util/args.js';
import { ProposalError, UsageError } from '../util/errors.js';
import { loadVault } from '../vault/load.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('apply', args, {
    execute: { type: 'boolean' },
    'all-or-nothing': { type: 'boolean' },
    'allow-new-errors': { type: 'boolean' },
    config: { type: 'string', short: 'c' },
  });
  if (!positionals[0]) throw new UsageError('apply: which proposal? memlint apply PROPOSAL [--execute]');
  const file = resolve(io.cwd, positionals[0]);
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) { throw new ProposalError(`cannot read proposal ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
  const proposal = parseProposal(text, file);
  const root = proposal.vault;
  const { config } = await loadConfig(root, values.config ? resolve(io.cwd, values.config) : undefined);
  const options = { allOrNothing: Boolean(values['all-or-nothing']), allowNewErrors: Boolean(values['allow-new-errors']) };
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
    if (plan.changes.length > 0) executeChanges(root, plan.runId, plan.changes, { kind: 'apply', items: plan.items, proposal: file });
    io.stdout.write(formatPlan(plan, { dryRun: false }));
    io.stdout.write(describeGate(gate));
    io.stdout.write(plan.changes.length ? `run id: ${plan.runId} (undo with: memlint undo ${plan.runId} --vault ${root})\n` : 'nothing changed; no run recorded\n');
    return plan.items.some((i) => i.status === 'refused') ? 1 : 0;
  } finally {
    lock.release();
  }
}
