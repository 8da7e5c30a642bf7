import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import { guardDraft, type GuardResult } from '../guard/guard.js';
import { GuardTimeout, HOOK_TIMEOUT_MS } from '../guard/deadline.js';
import type { IO } from '../io.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { UsageError } from '../util/errors.js';
import { mark } from '../util/timing.js';

export function formatGuard(r: GuardResult): string {
  const out: string[] = [r.verdict === 'refuse' ? '✖ refuse' : r.verdict === 'ask' ? '? ask' : '✔ ok'];
  for (const reason of r.reasons) out.push(`  ${reason}`);
  for (const a of r.index?.advice ?? []) out.push(`  note: ${a}`);
  for (const m of r.matches) {
    out.push(
      `  ${m.kind === 'contradiction' ? 'contradicts' : 'similar to'} ${m.path}${m.entry ? ` entry ${m.entry}` : ''}${m.name ? ` ("${m.name}")` : ''}: similarity ${m.similarity}, ${m.ageDays ?? '?'} days old, origin ${m.origin}`,
    );
    if (m.conflict)
      out.push(
        `    ${m.conflict.kind} (${m.conflict.detail}): draft "${m.conflict.draft}" vs note "${m.conflict.note}"`,
      );
  }
  for (const p of r.problems) out.push(`  ${p.severity} ${p.line}:${p.column} ${p.message}  ${p.ruleId}`);
  return `${out.join('\n')}\n`;
}

export async function run(args: string[], io: IO): Promise<number> {
  mark('guard loaded');
  const { values, positionals } = parseCommandArgs(
    'guard',
    args,
    {
      file: { type: 'string' },
      path: { type: 'string' },
      format: { type: 'string', short: 'f' },
      config: { type: 'string', short: 'c' },
      'claude-hook': { type: 'boolean' },
      timeout: { type: 'string' },
    },
    16,
  );
  if (values['claude-hook']) {
    const ms = values.timeout === undefined ? HOOK_TIMEOUT_MS : Number(values.timeout);
    if (!Number.isInteger(ms) || ms < 0)
      throw new UsageError(`guard: --timeout takes milliseconds (0: no bound), not '${values.timeout}'`);
    return claudeHook(positionals, io, ms);
  }
  if (values.timeout !== undefined) throw new UsageError('guard: --timeout bounds the hook only (--claude-hook)');
  if (positionals.length > 1) throw new UsageError(`guard: unexpected argument '${positionals[1]}'`);
  const format = oneOf('guard', 'format', values.format, ['pretty', 'json'] as const, 'pretty');
  const root = resolve(io.cwd, positionals[0] ?? '.');
  let draft: string;
  if (values.file) {
    try {
      draft = readFileSync(resolve(io.cwd, values.file), 'utf8');
    } catch (e) {
      throw new UsageError(
        `guard: cannot read ${values.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
  } else {
    if (io.stdinIsTTY) throw new UsageError('guard: give the draft with --file DRAFT or on standard input');
    draft = await io.readStdin();
  }
  mark('draft read');
  const { config } = await loadConfig(root, values.config ? resolve(io.cwd, values.config) : undefined, knownRuleIds);
  mark('config');
  const result = guardDraft(root, config, draft, values.path ? { targetPath: values.path.split('\\').join('/') } : {});
  if (format === 'json') {
    io.stdout.write(
      `${JSON.stringify({ verdict: result.verdict, matches: result.matches, problems: result.problems, reasons: result.reasons, ...(result.index ? { index: result.index } : {}) }, null, 2)}\n`,
    );
  } else {
    io.stdout.write(formatGuard(result));
  }
  mark('written');
  return result.verdict === 'ok' ? 0 : 1;
}

async function claudeHook(vaults: string[], io: IO, timeoutMs: number): Promise<number> {
  // The bound counts from here: start-up before it is the same for every call.
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
  // Loaded only in hook mode (zod, for a payload parseHookInput does not accept itself).
  const { hookAnswer, hookContext, parseHookInput, hookTarget } = await import('../guard/claude-hook.js');
  let input;
  try {
    input = parseHookInput(JSON.parse(await io.readStdin()));
  } catch (e) {
    // A malformed payload must not block every write: say so and let the tool run.
    io.stderr.write(
      `memlint guard --claude-hook: cannot read the hook input (${(e as Error).message.split('\n')[0]}); not checked\n`,
    );
    return 0;
  }
  // From here on nothing may block the agent: any problem (an unreadable note, a FIFO, an invalid
  // config in the vault, a bound exceeded) is one line on stderr and the tool runs unchecked.
  try {
    const target = hookTarget(
      input,
      vaults.map((v) => resolve(io.cwd, v)),
      io.env,
    );
    if (!target) return 0;
    const { config } = await loadConfig(target.vault, undefined, knownRuleIds);
    const result = guardDraft(target.vault, config, target.content, {
      targetPath: target.path,
      wholeFile: true,
      ...(deadline !== undefined ? { deadline } : {}),
    });
    if (result.verdict === 'refuse') {
      io.stdout.write(hookAnswer('deny', `memlint refused this memory write: ${result.reasons.join('; ')}`));
      return 0;
    }
    if (result.verdict === 'ask') {
      io.stdout.write(hookAnswer('ask', `memlint: look before saving this memory write: ${result.reasons.join('; ')}`));
      return 0;
    }
    if (result.index?.advice.length) io.stdout.write(hookContext(`memlint: ${result.index.advice.join('; ')}`));
    return 0;
  } catch (e) {
    const why =
      e instanceof GuardTimeout
        ? `took longer than ${timeoutMs} ms (${e.message}); raise it with --timeout MS`
        : ((e as Error)?.message ?? String(e)).split('\n')[0];
    io.stderr.write(`memlint guard --claude-hook: ${why}; not checked\n`);
    return 0;
  }
}
