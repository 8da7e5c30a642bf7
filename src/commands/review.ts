import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import type { IO } from '../io.js';
import { parseProposal } from '../proposal/yaml.js';
import { anthropicJudge, commandJudge, openaiJudge, type Judge } from '../review/judge.js';
import { infoSummary, reviewSession } from '../review/session.js';
import { oneOf, parseCommandArgs } from '../util/args.js';
import { ProposalError, UsageError } from '../util/errors.js';
import { loadVault } from '../vault/load.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('review', args, {
    judge: { type: 'string' },
    'judge-cmd': { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    config: { type: 'string', short: 'c' },
  });
  // Never unattended: no flag overrides this.
  if (io.env.CI || !io.stdinIsTTY || !io.stdout.isTTY || !io.ask) {
    throw new UsageError(
      `review is interactive: it needs a terminal on stdin and stdout and refuses when CI is set${io.env.CI ? ' (CI is set)' : ''}. The model step never runs unattended; mark decisions in the YAML by hand instead.`,
    );
  }
  if (!positionals[0]) throw new UsageError('review: which proposal? memlint review PROPOSAL');
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
  const { config } = await loadConfig(
    proposal.vault,
    values.config ? resolve(io.cwd, values.config) : undefined,
    knownRuleIds,
  );
  const vault = loadVault(proposal.vault, { config });
  const kind = values['judge-cmd']
    ? 'command'
    : values.judge
      ? oneOf('review', 'judge', values.judge, ['anthropic', 'openai', 'command'] as const, 'anthropic')
      : config.review.judge;
  const o = {
    model: values.model ?? config.review.model ?? (kind === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5'),
    timeoutMs: config.review.timeoutMs,
    ...((values['base-url'] ?? config.review.baseUrl) ? { baseUrl: values['base-url'] ?? config.review.baseUrl } : {}),
    ...((values['judge-cmd'] ?? config.review.command)
      ? { command: values['judge-cmd'] ?? config.review.command }
      : {}),
  };
  let judge: Judge | null = null;
  if (kind === 'anthropic') judge = await anthropicJudge(o);
  else if (kind === 'openai') judge = await openaiJudge(o);
  else if (kind === 'command') {
    if (!o.command) throw new UsageError('review: --judge command needs --judge-cmd CMD');
    judge = commandJudge(o);
  }
  const pending = proposal.items.filter((i) => i.decision === 'pending').length;
  io.stdout.write(
    `${pending} pending item(s) of ${proposal.items.length}${judge ? `; advice from ${judge.name} (advice only: you decide)` : ''}\n`,
  );
  io.stdout.write(infoSummary(proposal));
  const r = await reviewSession(file, proposal, vault, io, judge, config.review.concurrency);
  const notReached = r.pending - r.skipped;
  io.stdout.write(
    `\n${r.approved} approved, ${r.rejected} rejected; ${r.pending} still pending (${r.skipped} skipped, ${notReached} not reached). Saved to ${file}\n`,
  );
  if (r.approved) io.stdout.write(`Next: memlint apply ${positionals[0]}   (a dry run; add --execute to do it)\n`);
  return 0;
}
