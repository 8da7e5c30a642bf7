import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProposal } from '../src/proposal/yaml.js';
import { corpusVaults, hasCorpus } from './helpers/corpus.js';
import { copyToTemp, runBin, runMain } from './helpers/run.js';
import { snapshotTree } from './helpers/snapshot.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const withoutState = (m: Map<string, string>): Map<string, string> =>
  new Map([...m].filter(([k]) => !k.startsWith('.memlint')));

describe('consolidate is read-only for every note, index and catalog (bytes, modes, mtimes)', () => {
  const vaults = [DEMO, ...(hasCorpus ? [...corpusVaults('claude'), ...corpusVaults('hermes')] : [])];
  it.each(vaults.map((v) => [basename(v), v] as const))(
    '%s',
    (_n, src) => {
      const dir = copyToTemp(src);
      const before = snapshotTree(dir);
      const r = runBin(['consolidate', dir]);
      expect(r.code, r.stderr).toBe(0);
      const after = snapshotTree(dir);
      expect(withoutState(after)).toEqual(withoutState(before));
      // The only new files are the proposal and its folder.
      const added = [...after.keys()].filter((k) => !before.has(k));
      expect(added.every((k) => k.startsWith('.memlint/'))).toBe(true);
      expect(added.filter((k) => k.endsWith('.yaml'))).toHaveLength(1);
    },
    300_000,
  ); // the largest corpus vaults take tens of seconds with the new conflict engine (issue 14 open)
});

describe('consolidate CLI', () => {
  it('writes VAULT/.memlint/proposals/<run-id>.yaml and prints its path', () => {
    const dir = copyToTemp(DEMO);
    const r = runBin(['consolidate', dir]);
    expect(r.code).toBe(0);
    const path = r.stdout.trim();
    expect(path.startsWith(join(dir, '.memlint', 'proposals'))).toBe(true);
    expect(basename(path)).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}\.yaml$/);
    const proposal = parseProposal(readFileSync(path, 'utf8'), path);
    // The demo's dangling link and near-duplicate are proposed; its split, orphans, contradiction and incident are info by default.
    expect(proposal.items.length).toBeGreaterThanOrEqual(2);
    expect(proposal.info?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(proposal.items.every((i) => i.decision === 'pending')).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(/^# memlint proposal: nothing here changes your memory/);
  });

  it('--out - prints the YAML; --format json prints the same content as JSON', () => {
    const yaml = runBin(['consolidate', DEMO, '--out', '-']).stdout;
    const json = JSON.parse(runBin(['consolidate', DEMO, '--format', 'json']).stdout);
    const fromYaml = parseProposal(yaml, 'stdout');
    expect({ ...fromYaml, createdAt: '' }).toEqual({ ...json, createdAt: '' });
  });

  it('is deterministic: the same vault gives the same bytes apart from createdAt', () => {
    const strip = (s: string): string => s.replace(/^createdAt: .*$/m, '');
    const a = runBin(['consolidate', DEMO, '--out', '-']).stdout;
    const b = runBin(['consolidate', DEMO, '--out', '-']).stdout;
    expect(strip(a)).toBe(strip(b));
  });

  it('every item carries the sha256 of the files it reads and a pending decision', async () => {
    const r = await runMain(['consolidate', DEMO, '--format', 'json']);
    const p = JSON.parse(r.stdout);
    for (const item of p.items) {
      expect(item.decision).toBe('pending');
      for (const n of item.notes) expect(n.sha256).toMatch(/^[0-9a-f]{64}$|^absent$/);
    }
    expect(p.summary.items['near-duplicate']).toBe(1);
    // Kinds measured below 0.8 precision are shown as info, with why, and cannot be approved.
    expect(p.summary.items.contradiction).toBe(0);
    expect(p.summary.info.contradiction).toBe(1);
    expect(p.summary.items.incident).toBe(1);
    expect(p.summary.items['index-overflow']).toBe(1);
    for (const item of p.info) {
      expect(item.decision).toBeUndefined();
      expect(item.why).toMatch(/not proposed by default|not indexed: |marks|dated log|superseded|oldest/);
    }
  });

  it('with --root, dead references in the demo are found and counted', () => {
    const p = JSON.parse(
      runBin(['consolidate', DEMO, '--root', 'fixtures/demo-project', '--format', 'json'], {
        env: { PATH: '/nonexistent' },
      }).stdout,
    );
    // One item per missing reference, listing every note that names it.
    // Dead references are info by default (not measured on the corpus; their action changes nothing).
    const dead = [...p.items, ...(p.info ?? [])].filter((i: { kind: string }) => i.kind === 'dead-reference') as {
      evidence: { reference: string; mentionedIn: unknown[] };
    }[];
    const refs = dead.map((i) => i.evidence.reference);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs).toEqual(expect.arrayContaining(['src/legacy/cache.ts', 'lint', 'migrate-check']));
    expect(refs).not.toContain('src/api/server.ts');
    expect(refs).not.toContain('release');
    expect(p.summary.deadReferences.dead).toBe(dead.reduce((n, i) => n + i.evidence.mentionedIn.length, 0));
    // A missing executable six notes mention is one item that lists all six.
    const pnpm = dead.filter((i) => i.evidence.reference === 'pnpm');
    expect(pnpm).toHaveLength(1);
    expect(new Set((pnpm[0]!.evidence.mentionedIn as { note: string }[]).map((m) => m.note)).size).toBe(6);
  });

  it('a --root that does not exist is a usage error', () => {
    const r = runBin(['consolidate', DEMO, '--root', 'no/such/folder', '--out', '-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--root no\/such\/folder: no such folder/);
    // One line, no stack trace, and no proposal on stdout.
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('says on stderr how many references could not be checked, and why', () => {
    const r = runBin(['consolidate', DEMO, '--out', '-']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /\d+ references could not be checked \(0 checked\): \d+ no project root found \(pass `--root`\)/,
    );
  });

  it('never writes a proposal over an existing one without --out', () => {
    const dir = copyToTemp(DEMO);
    const a = runBin(['consolidate', dir]);
    const b = runBin(['consolidate', dir]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stdout.trim()).not.toBe(b.stdout.trim());
    expect(existsSync(a.stdout.trim()) && existsSync(b.stdout.trim())).toBe(true);
    expect(readdirSync(join(dir, '.memlint', 'proposals'))).toHaveLength(2);
  });

  it('a bad --format is a usage error', async () => {
    const r = await runMain(['consolidate', DEMO, '--format', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--format must be one of yaml, json/);
  });
});
