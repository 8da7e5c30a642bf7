import { resolve } from 'node:path';
import { undoRun } from '../apply/execute.js';
import type { IO } from '../io.js';
import { existingVault } from '../util/state-dir.js';
import { parseCommandArgs } from '../util/args.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('undo', args, {
    vault: { type: 'string' },
    force: { type: 'boolean' },
  });
  const root = existingVault(resolve(io.cwd, values.vault ?? '.'));
  const done = undoRun(root, positionals[0], { force: Boolean(values.force) });
  io.stdout.write(
    `undid ${done.undid}: restored ${done.touched.length} file(s)\nrun id: ${done.runId} (this undo can itself be undone: memlint undo ${done.runId} --vault ${root})\n`,
  );
  return 0;
}
