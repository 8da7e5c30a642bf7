/** The CLI: a table of lazily loaded commands, typed errors caught in one place. */
import { ISOLATED } from './commands/isolate.js';
import type { IO } from './io.js';
import { MemlintError, UsageError } from './util/errors.js';
import { escapeControl } from './util/control.js';
import { VERSION } from './version.js';

/** System errors that name a file the person can fix: one line, exit 2 (not "internal error"). */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ELOOP: 'too many symbolic links',
};

export interface CommandModule {
  run(args: string[], io: IO): Promise<number>;
}

interface CommandEntry {
  readonly usage: string;
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: {
    usage:
      'memlint check [VAULT] [--all] [--format pretty|json|sarif|github] [--quiet] [--rule ID]... [--ignore-rule ID]... [--max-warnings N] [--config FILE] [--kind claude|hermes] [--root DIR] [--staged] [--cache [--cache-strategy stat|content] [--cache-location FILE]]',
    summary: 'check the index budget, links, orphans, front matter and catalog',
    load: () => import('./commands/check.js'),
  },
  catalog: {
    usage: 'memlint catalog [VAULT] [--write | --check] [--config FILE]',
    summary: 'print, write (--write) or verify (--check) the catalog of every note',
    load: () => import('./commands/catalog.js'),
  },
  consolidate: {
    usage: 'memlint consolidate [VAULT] [--all] [--root DIR] [--out FILE|-] [--format yaml|json] [--config FILE]',
    summary: 'find duplicates, contradictions, dead references, incidents → a proposal (read-only)',
    load: () => import('./commands/consolidate.js'),
  },
  review: {
    usage:
      'memlint review PROPOSAL [--judge anthropic|openai|command] [--judge-cmd CMD] [--model NAME] [--base-url URL]',
    summary: "mark each pending item approve / reject, with a model's advice if configured (a terminal only)",
    load: () => import('./commands/review.js'),
  },
  apply: {
    usage: 'memlint apply PROPOSAL [--execute] [--all-or-nothing] [--allow-new-errors] [--vault VAULT]',
    summary: 'dry run (default) or carry out the approved items of a proposal, with snapshot and journal',
    load: () => import('./commands/apply.js'),
  },
  undo: {
    usage: 'memlint undo [RUN_ID] [--vault VAULT] [--force]',
    summary: 'restore the exact bytes from before a run (default: the last one)',
    load: () => import('./commands/undo.js'),
  },
  runs: {
    usage: 'memlint runs [VAULT] [--format text|json]',
    summary: 'list apply and undo runs: time, items, files touched, status',
    load: () => import('./commands/runs.js'),
  },
  recover: {
    usage: 'memlint recover [VAULT] [--forward]',
    summary: 'after a crash: roll an interrupted run back (or --forward: finish it)',
    load: () => import('./commands/recover.js'),
  },
  guard: {
    usage:
      'memlint guard [VAULT] [--file DRAFT] [--path TARGET] [--format pretty|json] | memlint guard --claude-hook [--timeout MS] [VAULT...]',
    summary: 'before writing a note: refuse near-duplicates, show contradictions, run schema and security checks',
    load: () => import('./commands/guard.js'),
  },
  mcp: {
    usage: 'memlint mcp [VAULT...]  (no VAULT: the memory folders check --all finds)',
    summary: 'serve check_memory_draft and check_vault over MCP (stdio); nothing it exposes writes',
    load: () => import('./commands/mcp.js'),
  },
  report: {
    usage: 'memlint report [PROPOSAL | VAULT] --html FILE [--root DIR]',
    summary: 'one self-contained HTML report: index gauge, findings, duplicates, contradictions, link graph',
    load: () => import('./commands/report.js'),
  },
  hook: {
    usage: 'memlint hook install [VAULT] [--force]',
    summary: 'install a git pre-commit hook that runs check when memory files are staged',
    load: () => import('./commands/hook.js'),
  },
  rules: {
    usage: 'memlint rules [--format json|markdown]',
    summary: 'list every rule with its id, severity, why it matters and how to fix it',
    load: () => import('./commands/rules.js'),
  },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    `memlint ${VERSION} — keeps an AI agent's long-term memory healthy`,
    '',
    'Usage: memlint <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --help. Exit codes: 0 clean, 1 problems at error severity, 2 could not run.',
    'Add --debug to see the stack trace of an internal error.',
    '',
  ].join('\n');
}

export async function main(io: IO): Promise<number> {
  const args = [...io.argv];
  const debug = args.includes('--debug');
  const rest = args.filter((a) => a !== '--debug');
  const [name, ...commandArgs] = rest;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(helpText());
      return 0;
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!entry) throw new UsageError(`unknown command '${name}'. Run 'memlint --help' for the list.`);
    if (commandArgs.includes('--help') || commandArgs.includes('-h')) {
      io.stdout.write(`Usage: ${entry.usage}\n\n${entry.summary}\n`);
      return 0;
    }
    // Out of heap on a worker is one line and exit 2; on the main thread it would be V8's fatal trace.
    const isolated = ISOLATED.has(name) ? io.isolate?.(name, io.argv) : null;
    if (isolated) return await isolated;
    const command = await entry.load();
    return await command.run(commandArgs, io);
  } catch (e) {
    if (e instanceof MemlintError) {
      io.stderr.write(`memlint: ${e.message}\n`);
      return 2;
    }
    // A file the system refused (missing, a folder, no permission, too large): the user's to fix, named.
    const sys = e as NodeJS.ErrnoException;
    if (sys && typeof sys.code === 'string' && FILE_ERRORS[sys.code] && typeof sys.path === 'string') {
      io.stderr.write(
        `memlint: ${FILE_ERRORS[sys.code]}: ${escapeControl(sys.path.replace(/\/\.([^/]+)\.[0-9a-f]{12}\.tmp$/, '/$1'))} (${sys.code})\n`,
      );
      return 2;
    }
    const err = e as Error;
    io.stderr.write(
      `memlint: internal error: ${err?.message ?? String(e)}${debug ? '' : ' (run again with --debug for the stack trace)'}\n`,
    );
    if (debug && err?.stack) io.stderr.write(`${err.stack}\n`);
    return 2;
  }
}
