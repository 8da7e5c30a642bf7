import { resolve } from 'node:path';
import { recoverVault } from '../apply/execute.js';
import type { IO } from '../io.js';
import { existingVault } from '../util/state-dir.js';
import { parseCommandArgs } from '../util/args.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('recover', args, { forward: { type: 'boolean' } });
  const report = recoverVault(existingVault(resolve(io.cwd, positionals[0] ?? '.')), {
    forward: Boolean(values.forward),
  });
  if (report.staleLock) io.stdout.write(`removed a stale lock left by ${report.staleLock}\n`);
  if (report.runs.length === 0) io.stdout.write('nothing to recover\n');
  for (const r of report.runs) {
    io.stdout.write(`run ${r.id}: ${r.action}\n`);
    for (const k of r.kept)
      io.stdout.write(
        `  ${k.path} was edited after the crash: ${k.sha === 'absent' ? 'it had been deleted' : `its content is kept in .memlint/runs/${r.id}/objects/${k.sha}`}\n`,
      );
  }
  return 0;
}
