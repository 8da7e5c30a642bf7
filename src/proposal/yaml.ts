/** Proposals as YAML a person can read and edit; parsed back strictly. */
import { Document, parseDocument } from 'yaml';
import { ProposalError } from '../util/errors.js';
import { proposalSchema, type Proposal } from './schema.js';

export const PROPOSAL_HEADER = [
  ' memlint proposal: nothing here changes your memory until a person approves it.',
  '',
  ' For each item, read the notes and the evidence, then set `decision:` to',
  '   approve  — `memlint apply` may carry out its `action`',
  '   reject   — never act on it',
  '   pending  — undecided (the default); apply skips it',
  ' You may edit an action (e.g. change a merge `into`, or write a merged `body:`), but apply',
  ' refuses an item whose notes changed since this file was written (their sha256 differ).',
  '',
  ' Dry run: memlint apply THIS_FILE        Execute: memlint apply THIS_FILE --execute',
].join('\n');

export function proposalToYaml(p: Proposal): string {
  const doc = new Document(p, { keepUndefined: false });
  doc.commentBefore = PROPOSAL_HEADER;
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

export function parseProposal(text: string, source: string): Proposal {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const notOne = `${source} is not a memlint proposal (one is written by \`memlint consolidate\`: version: 1, vault, items)`;
  if (doc.errors.length) throw new ProposalError(`${notOne}: not YAML (${doc.errors[0]!.message.split('\n')[0]})`);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    throw new ProposalError(`${source}: ${(e as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('items' in raw) || !('vault' in raw))
    throw new ProposalError(notOne);
  const result = proposalSchema.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new ProposalError(`${source} is not a valid proposal: ${first.join('; ')}`);
  }
  return result.data;
}
