/** A near-duplicate merge loses no text: what the retired note says that the kept one does not is carried. */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeld, keptView, unheldUnits, type BodyView } from '../src/similarity/held.js';
import { parseMarkdown } from '../src/vault/file.js';
import { editProposal, proposeInto } from './helpers/proposal.js';
import { copyToTemp, runBin, tempDir } from './helpers/run.js';

function view(text: string): BodyView {
  const bytes = new TextEncoder().encode(text);
  const p = parseMarkdown('n.md', '/n.md', 'note', bytes, { size: bytes.length, mtimeMs: 0, mode: 0o644 }, 1 << 20);
  return { text: p.text, bodyOffset: p.bodyOffset, codeRanges: p.scan.codeRanges, position: p.position };
}
const kept = view(
  '---\nname: k\n---\nAlways use pnpm to install; never run npm install. The lockfile is pnpm-lock.yaml.\n\n- Run `pnpm test` before a push.\n',
);

describe('held: what a kept note already says', () => {
  it('a reordered, shortened or identical sentence is held', () => {
    const k = keptView(kept);
    expect(isHeld('The lockfile is pnpm-lock.yaml.', k)).toBe(true);
    expect(isHeld('Never run npm install; always use pnpm to install.', k)).toBe(true);
    expect(isHeld('Run pnpm test before a push.', k)).toBe(true);
  });

  it('a sentence with a word the kept sentence lacks is not held, even when the word occurs elsewhere in the note', () => {
    const k = keptView(view('---\nname: k\n---\nNever run npm install.\n\nCI runs on every push.\n'));
    expect(isHeld('Never run npm install or npm ci.', k)).toBe(false);
  });

  it('carries each missing unit once, in order, across several retired notes; code blocks whole', () => {
    const a = view(
      '---\nname: a\n---\nAlways use pnpm to install. Tell the mobile team first.\n\n```sh\npnpm i --frozen-lockfile\n```\n',
    );
    const b = view('---\nname: b\n---\nTell the mobile team first. Ask #infra for the token.\n');
    const carried = unheldUnits(kept, [
      { from: 'a.md', view: a },
      { from: 'b.md', view: b },
    ]);
    expect(carried).toEqual([
      { from: 'a.md', units: ['Tell the mobile team first.', '```sh\npnpm i --frozen-lockfile\n```'] },
      { from: 'b.md', units: ['Ask #infra for the token.'] },
    ]);
  });
});

describe("apply: approving the merge keeps the retired note's extra fact", () => {
  it('demo vault: "or npm ci" from the retired note is in the kept note after --execute, and undo restores both', () => {
    const vault = copyToTemp(join('fixtures', 'demo-vault'));
    const proposal = proposeInto(vault, join(tempDir(), 'p.yaml'));
    editProposal(proposal, (items) =>
      items.forEach((i) => {
        if (i.kind === 'near-duplicate') i.decision = 'approve';
      }),
    );
    const keptBefore = readFileSync(join(vault, 'feedback_use-pnpm.md'), 'utf8');
    expect(keptBefore).not.toContain('npm ci');
    const r = runBin(['apply', proposal, '--execute']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(vault, 'feedback_pnpm-only.md'))).toBe(false);
    const keptAfter = readFileSync(join(vault, 'feedback_use-pnpm.md'), 'utf8');
    expect(keptAfter.startsWith(keptBefore.trimEnd())).toBe(true);
    expect(keptAfter).toContain('never run npm install or npm ci.');
    expect(runBin(['undo', '--vault', vault]).code).toBe(0);
    expect(readFileSync(join(vault, 'feedback_use-pnpm.md'), 'utf8')).toBe(keptBefore);
  });
});
