/** Every real vault in ../shared/corpus: no crash, exact counts, known facts, nothing written. */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVault } from '../src/check.js';
import { checkJson } from './contract.js';
import { truncateEntrypointContent } from './reference/claude-memdir.js';
import { CORPUS, corpusVaults, hasCorpus } from './helpers/corpus.js';
import { copyToTemp, runBin } from './helpers/run.js';
import { snapshotTree } from './helpers/snapshot.js';

interface Source {
  id: string;
  kind: string;
  notes: number;
  indexLines: number;
  indexBytes: number;
}

function sources(): Map<string, Source> {
  const rows = readFileSync(join(CORPUS, 'SOURCES.tsv'), 'utf8').trim().split('\n').slice(1);
  return new Map(
    rows.map((r) => {
      const [id, kind, , , , notes, lines, bytes] = r.split('\t');
      return [
        id!,
        { id: id!, kind: kind!, notes: Number(notes), indexLines: Number(lines), indexBytes: Number(bytes) },
      ];
    }),
  );
}

/** An independent count: `wc -l` semantics plus a last line without a newline. */
function countLines(buf: Buffer): number {
  let n = 0;
  for (const b of buf) if (b === 0x0a) n++;
  return buf.length > 0 && buf[buf.length - 1] !== 0x0a ? n + 1 : n;
}

describe.skipIf(!hasCorpus)('real claude vaults', () => {
  const vaults = corpusVaults('claude');
  const src = hasCorpus ? sources() : new Map<string, Source>();

  it.each(vaults.map((v) => [basename(v), v] as const))('%s', (id, dir) => {
    const r = runBin(['check', dir, '--format', 'json']);
    expect([0, 1]).toContain(r.code);
    expect(r.stderr).toBe('');
    const json = checkJson.parse(JSON.parse(r.stdout));
    expect(json.kind).toBe('claude');
    const raw = readFileSync(join(dir, 'MEMORY.md'));
    // The file is the one SOURCES.tsv describes (bytes counted before credentials were REDACTED).
    expect(countLines(raw)).toBe(src.get(id)!.indexLines);
    if (!raw.includes('REDACTED')) expect(raw.length).toBe(src.get(id)!.indexBytes);
    // lines/bytes are what Claude Code measures (CONTRACT.md): its own function says what.
    const text = raw.toString('utf8');
    const ref = truncateEntrypointContent(text);
    expect([json.index!.lines, json.index!.bytes, json.index!.measure]).toEqual([
      ref.lineCount,
      ref.byteCount,
      'utf16',
    ]);
    expect(json.findings.some((f) => f.ruleId === 'internal/rule-crashed')).toBe(false);
    const over = ref.wasLineTruncated || ref.wasByteTruncated;
    expect(json.findings.some((f) => f.ruleId === 'index/over-budget')).toBe(over);
    if (over) {
      expect(json.index!.loadedLines).toBeLessThan(json.index!.lines);
      // Everything past the cut that is a list item or a link is named, with its note.
      const skipped = text.slice(0, text.indexOf(text.trim())).split('\n').length - 1;
      const lines = text.split('\n');
      const past = lines
        .slice(skipped + json.index!.loadedLines)
        .filter((l) => /^\s*(?:[-*+]|\d+[.)])\s|\]\(|\[\[/.test(l));
      expect(json.index!.lostEntries.length).toBe(past.length);
    } else {
      expect(json.index!.lostEntries).toEqual([]);
    }
  });

  it('the over-budget indexes are the ones over 200 lines or 25,000 bytes, with lost entries named', async () => {
    const over = [...src.values()]
      .filter((s) => s.kind === 'claude' && (s.indexLines > 200 || s.indexBytes > 25_000))
      .map((s) => s.id)
      .sort();
    expect(over).toEqual([
      '1000ssam__claude-config__memory',
      'Saengtawan__stock-analyzer__docs-memory',
      'tieoneease__dotfiles__claude-memory',
    ]);
    const big = await checkVault(join(CORPUS, 'claude', '1000ssam__claude-config__memory'));
    // 249 lines and 19,232 UTF-16 units (27,756 UTF-8 bytes, which Claude Code does not count): cut at line 200.
    expect(big.vault.indexInfo!.loadedLines).toBeLessThan(249);
    expect(big.vault.indexInfo!.lostEntries.some((e) => e.target !== null && big.vault.byPath.has(e.target))).toBe(
      true,
    );
  });

  it('vaults whose every note is linked from the index have no orphan', async () => {
    for (const id of [
      'DevJanderson__detecta-alerta__dot-claude-memory',
      'Aleslammer__deathwatch_foundryvtt__dotclaude-memory',
      'LightspeedDMS__code-indexer__dot-claude-memory',
      'tony21177__tw-stock-tools__claude-memory',
    ]) {
      const r = await checkVault(join(CORPUS, 'claude', id));
      const linked = new Set(r.vault.index!.links.map((l) => l.resolved));
      const allLinked = r.vault.notes.filter((n) => n.frontmatter).every((n) => linked.has(n.path));
      expect(allLinked, id).toBe(true);
      expect(
        r.findings.filter((f) => f.ruleId === 'note/orphan'),
        id,
      ).toEqual([]);
    }
  });

  it('front matter the YAML parser rejects is reported with a line inside the front matter', async () => {
    let invalid = 0;
    let notes = 0;
    for (const dir of vaults) {
      const r = await checkVault(dir);
      notes += r.vault.notes.length;
      for (const f of r.findings.filter((x) => x.ruleId === 'note/frontmatter-invalid')) {
        invalid++;
        const file = r.vault.byPath.get(f.file)!;
        const fmLines = file.text.slice(0, file.frontmatter!.bodyOffset || file.text.length).split('\n').length;
        expect(f.line).toBeLessThanOrEqual(fmLines);
      }
    }
    // The corpus README: about 1 note in 28.
    expect(invalid / notes).toBeGreaterThan(1 / 60);
    expect(invalid / notes).toBeLessThan(1 / 15);
  });
});

describe.skipIf(!hasCorpus)('check and catalog are read-only (bytes, modes and mtimes compared)', () => {
  it.each([...corpusVaults('claude'), ...corpusVaults('hermes')].map((v) => [basename(v), v] as const))(
    '%s',
    (_id, dir) => {
      const copy = copyToTemp(dir);
      const before = snapshotTree(copy);
      for (const args of [
        ['check', copy],
        ['check', copy, '--format', 'sarif'],
        ['catalog', copy],
        ['catalog', copy, '--check'],
      ])
        runBin(args);
      expect(snapshotTree(copy)).toEqual(before);
    },
  );
});
