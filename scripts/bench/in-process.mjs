// What the in-process benches (features.mjs, contradictions.mjs) share: `VAULT [LIB]` from the command line,
// the build to import from (LIB: another build's dist/lib, to pair two builds on the same vault, run after run;
// default this checkout's dist/lib), and the vault loaded with its config and the notes the rules read
// (`notesUnderRules` too, for a bench that times that call).
import { join, resolve } from 'node:path';

/** Exits with a usage line when no vault is given. `imp('vault/load.js')` imports a module of the chosen build. */
export async function loadBenchVault(script) {
  const [dir, libArg] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write(`usage: node scripts/bench/${script} VAULT [LIB]\n`);
    process.exit(2);
  }
  const lib = resolve(libArg ?? join(process.cwd(), 'dist', 'lib'));
  const imp = (path) => import(join(lib, ...path.split('/')));
  const { loadVault } = await imp('vault/load.js');
  const { loadConfig } = await imp('config/load.js');
  const { notesUnderRules } = await imp('rules/reachability.js');
  const vault = loadVault(dir, { config: (await loadConfig(dir)).config });
  return { imp, vault, notesUnderRules, notes: notesUnderRules(vault) };
}
