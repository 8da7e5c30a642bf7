import { resolve } from 'node:path';
import { listRuns } from '../apply/execute.js';
import type { IO } from '../io.js';
import { existingVault } from '../util/state-dir.js';
import { oneOf, parseCommandArgs } from '../util/args.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs', args, { format: { type: 'string' } });
  const format = oneOf('runs', 'format', values.format, ['text', 'json'] as const, 'text');
  const runs = listRuns(existingVault(resolve(io.cwd, positionals[0] ?? '.')));
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (runs.length === 0) {
    io.stdout.write('no runs\n');
    return 0;
  }
  for (const r of runs) {
    const extra = r.undoes ? ` (undoes ${r.undoes})` : r.undoneBy ? ` (undone by ${r.undoneBy})` : '';
    io.stdout.write(
      `${r.id}  ${r.at}  ${r.kind.padEnd(5)}  ${String(r.items).padStart(3)} items  ${String(r.files).padStart(3)} files  ${r.status}${extra}\n`,
    );
  }
  return 0;
}
