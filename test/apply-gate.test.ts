import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editProposal, proposeInto } from './helpers/proposal.js';
import { runBin, tempDir } from './helpers/run.js';

const sha = (dir: string, p: string): string =>
  createHash('sha256')
    .update(readFileSync(join(dir, p)))
    .digest('hex');

/** A vault whose index keeps a rule inline and points at one note. */
function vault(): string {
  const dir = join(tempDir(), 'vault');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'MEMORY.md'),
    '# Memory\n\n- **NEVER push to main without review.**\n- [Deploy](deploy.md) — how we deploy\n',
  );
  writeFileSync(
    join(dir, 'deploy.md'),
    '---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nRun make deploy.\n',
  );
  return dir;
}

describe('apply: the post-state gate', () => {
  it('refuses an item that drops inline index text or adds an error finding, and names what it would do', () => {
    const dir = vault();
    const proposal = proposeInto(dir, join(dir, '..', 'p.yaml'));
    const before = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    // A hand-edited item of the kind the old index-overflow emitted: drop both lines.
    editProposal(proposal, (items) => {
      items.push({
        id: 'index-0001',
        kind: 'index-overflow',
        notes: [{ path: 'MEMORY.md', sha256: 'absent' }],
        evidence: {},
        suggestion: 'fix-index',
        action: {
          type: 'fix-index',
          file: 'MEMORY.md',
          remove: [
            { line: 3, text: '- **NEVER push to main without review.**' },
            { line: 4, text: '- [Deploy](deploy.md) — how we deploy' },
          ],
          add: [],
        },
        decision: 'approve',
      });
    });
    editProposal(proposal, (items) => {
      items[items.length - 1].notes[0].sha256 = sha(dir, 'MEMORY.md');
    });
    const r = runBin(['apply', proposal, '--execute']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /index-0001 index-overflow \(fix-index\): refused — post-state check: would add 1 error finding \(note\/orphan deploy\.md/,
    );
    expect(r.stdout).toMatch(
      /would leave the text of 2 removed index lines nowhere in the vault \(MEMORY\.md line 3 "- \*\*NEVER push/,
    );
    expect(r.stdout).toMatch(/--allow-new-errors/);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(before);

    const forced = runBin(['apply', proposal, '--execute', '--allow-new-errors']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/--allow-new-errors: the gate refused nothing, although would add 1 error finding/);
    expect(forced.stdout).toMatch(/lost: MEMORY\.md line 3: - \*\*NEVER push to main without review\.\*\*/);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).not.toContain('NEVER push');
  });

  it('lets through an item whose removed line text lives on elsewhere in the vault', () => {
    const dir = vault();
    writeFileSync(
      join(dir, 'rules.md'),
      '---\nname: rules\ndescription: rules\ntype: feedback\n---\n- **NEVER push to main without review.**\n',
    );
    writeFileSync(join(dir, 'MEMORY.md'), `${readFileSync(join(dir, 'MEMORY.md'), 'utf8')}- [Rules](rules.md)\n`);
    const proposal = proposeInto(dir, join(dir, '..', 'p.yaml'));
    editProposal(proposal, (items) => {
      items.push({
        id: 'index-0001',
        kind: 'index-overflow',
        notes: [{ path: 'MEMORY.md', sha256: sha(dir, 'MEMORY.md') }],
        evidence: {},
        suggestion: 'fix-index',
        action: {
          type: 'fix-index',
          file: 'MEMORY.md',
          remove: [{ line: 3, text: '- **NEVER push to main without review.**' }],
          add: [],
        },
        decision: 'approve',
      });
    });
    const r = runBin(['apply', proposal, '--execute']);
    expect(r.stdout).toMatch(/index-0001 index-overflow \(fix-index\): ran/);
    expect(r.code, r.stdout).toBe(0);
  });

  it('a dead wikilink unlinked in place keeps its line (consolidate proposes it); removing that line is still refused', () => {
    const dir = vault();
    const line = '- see also [[reference_gone-runbook]] — the old deploy runbook for the staging cluster';
    writeFileSync(join(dir, 'MEMORY.md'), `${readFileSync(join(dir, 'MEMORY.md'), 'utf8')}${line}\n`);
    const proposal = proposeInto(dir, join(dir, '..', 'p.yaml'));
    const doc = readFileSync(proposal, 'utf8');
    // Proposed, not withheld: the gate no longer reads the unlinked line as lost text.
    expect(doc).toMatch(/id: dangling-0001/);
    expect(doc).not.toMatch(/withheld:/);
    editProposal(proposal, (items) => {
      for (const i of items) i.decision = i.id === 'dangling-0001' ? 'approve' : 'reject';
      items.push({
        id: 'index-0002',
        kind: 'index-overflow',
        notes: [{ path: 'MEMORY.md', sha256: sha(dir, 'MEMORY.md') }],
        evidence: {},
        suggestion: 'fix-index',
        action: { type: 'fix-index', file: 'MEMORY.md', remove: [{ line: 5, text: line }], add: [] },
        decision: 'approve',
      });
    });
    const r = runBin(['apply', proposal, '--execute']);
    expect(r.stdout).toMatch(/dangling-0001 dangling-link \(fix-index\): ran/);
    expect(r.stdout).toMatch(
      /index-0002 index-overflow \(fix-index\): refused — post-state check: would leave the text of 1 removed index line/,
    );
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain(
      '- see also reference_gone-runbook — the old deploy runbook',
    );
  });

  it('a section moved byte for byte into a new note takes its dead link with it: that error is not new', () => {
    const dir = vault();
    const section = ['## Old links', '- see also [[reference_gone-runbook]] — the old deploy runbook'];
    writeFileSync(join(dir, 'MEMORY.md'), `${readFileSync(join(dir, 'MEMORY.md'), 'utf8')}\n${section.join('\n')}\n`);
    const proposal = proposeInto(dir, join(dir, '..', 'p.yaml'));
    editProposal(proposal, (items) => {
      for (const i of items) i.decision = 'reject';
      items.push({
        id: 'index-0009',
        kind: 'index-overflow',
        notes: [{ path: 'MEMORY.md', sha256: sha(dir, 'MEMORY.md') }],
        evidence: {},
        suggestion: 'split-index',
        action: {
          type: 'split-index',
          file: 'MEMORY.md',
          moves: [
            {
              from: 6,
              lines: section,
              note: 'memory-old-links.md',
              frontmatter: '',
              pointer: '- [Old links](memory-old-links.md)',
            },
          ],
        },
        decision: 'approve',
      });
    });
    const r = runBin(['apply', proposal, '--execute']);
    expect(r.stdout).toMatch(/index-0009 index-overflow \(split-index\): ran/);
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(join(dir, 'memory-old-links.md'), 'utf8')).toContain('[[reference_gone-runbook]]');
  });
});
