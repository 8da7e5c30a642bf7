/**
 * Planning an apply: pure data from a proposal and the vault as it is now. Only approved items run;
 * each is checked for tampered paths and stale hashes first (validate.ts), then its action gives an
 * overlay of edits (actions.ts), and the overlays of the run become the file changes (compose.ts).
 * The plan is the list of files with their exact bytes before and after, so executing, dry-running
 * and undoing all read one thing.
 */
import { manifestOf } from '../proposal/refs.js';
import type { Proposal, ProposalItem } from '../proposal/schema.js';
import { count } from '../util/counters.js';
import type { Vault } from '../vault/model.js';
import { describe, runAction } from './actions.js';
import { Composition, emptyOverlay, type FileChange, type Overlay } from './compose.js';
import type { PathMemo } from './paths.js';
import { checkFresh, checkPaths, Refusal } from './validate.js';

export type ItemStatus = 'run' | 'skipped' | 'refused' | 'done';

export interface ItemOutcome {
  readonly id: string;
  readonly kind: string;
  readonly action: string;
  readonly status: ItemStatus;
  readonly reason?: string;
  /** One line saying what the item does. */
  readonly summary?: string;
  readonly warnings: readonly string[];
}

export interface Plan {
  readonly runId: string;
  readonly vault: string;
  readonly items: readonly ItemOutcome[];
  readonly changes: readonly FileChange[];
}

/**
 * Overlays by action object, within one planning of many trials of one proposal (the post-state gate): an action's
 * overlay is a function of the vault and the action (actions.ts reads nothing else), and a run only copies out of
 * it (compose.ts `Composition.add`), so each item's action runs once, not once per trial. A refusal is kept too.
 */
export type ActionMemo = WeakMap<ProposalItem['action'], Overlay | Refusal>;

function overlayOf(vault: Vault, item: ProposalItem, memo: ActionMemo | undefined): Overlay {
  const known = memo?.get(item.action);
  if (known instanceof Refusal) throw known;
  if (known) return known;
  count('apply.actionsRun');
  const overlay = emptyOverlay();
  try {
    runAction(vault, item, overlay);
  } catch (e) {
    if (e instanceof Refusal) memo?.set(item.action, e);
    throw e;
  }
  memo?.set(item.action, overlay);
  return overlay;
}

export function planApply(
  proposal: Proposal,
  vault: Vault,
  runId: string,
  options: { allOrNothing?: boolean; paths?: PathMemo; actions?: ActionMemo } = {},
): Plan {
  const run = new Composition();
  const outcomes: ItemOutcome[] = [];
  const manifest = manifestOf(vault);

  for (const item of proposal.items) {
    const base = { id: item.id, kind: item.kind, action: item.action.type };
    if (item.decision !== 'approve') {
      outcomes.push({ ...base, status: 'skipped', reason: `decision: ${item.decision}`, warnings: [] });
      continue;
    }
    try {
      checkPaths(vault, item, options.paths);
      checkFresh(vault, item, manifest);
      const overlay = overlayOf(vault, item, options.actions);
      run.add(item.id, overlay);
      const changes = overlay.texts.size + overlay.index.size + overlay.stores.size;
      outcomes.push({
        ...base,
        status: changes ? 'run' : 'done',
        ...(changes ? { summary: describe(item) } : { reason: 'nothing to change' }),
        warnings: overlay.warnings,
      });
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      outcomes.push({ ...base, status: 'refused', reason: e.message, warnings: [] });
    }
  }

  if (options.allOrNothing && outcomes.some((o) => o.status === 'refused')) {
    return {
      runId,
      vault: vault.root,
      changes: [],
      items: outcomes.map((o) =>
        o.status === 'run' || o.status === 'done'
          ? { ...o, status: 'skipped', reason: '--all-or-nothing: another approved item was refused' }
          : o,
      ),
    };
  }
  return { runId, vault: vault.root, items: outcomes, changes: run.changes(vault, runId) };
}
