// Did-you-mean runs only for a missing link whose suggestion is read (issue 14): a backticked `x.md`
// mention in a note is reported by no rule with a suggestion, so `check` must not search for one; a
// link that is read gets the answer `resolveLink` gives, also when the link comes from `check --cache`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVault } from '../src/check.js';
import { snapshot, startCounting, stopCounting } from '../src/util/counters.js';
import { buildLookup, lazyLink, resolveLink, suggestionPending } from '../src/vault/resolve.js';
import { tempDir } from './helpers/run.js';

function vault(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'feedback_deploy-staging.md'),
    '---\nname: deploy\ndescription: staging deploys\ntype: feedback\n---\nSee `feedback_deploy-stagin.md` for the old rule.\n',
  );
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n- [Deploy](feedback_deploy-staging.md) — staging deploys\n');
  return dir;
}

async function run(dir: string, cache: boolean): Promise<{ rows: number; suggestion: string | null; reads: number }> {
  startCounting();
  try {
    const { vault: v } = await checkVault(dir, cache ? { cache: { racyMarginMs: 0 } } : {});
    const rows = (snapshot()['resolve.trieRows'] ?? 0) + (snapshot()['resolve.editDistance'] ?? 0);
    const link = v.notes[0]!.links.find((l) => l.kind === 'mention')!;
    expect(link.resolution).toBe('missing');
    const suggestion = link.suggestion;
    const reads = (snapshot()['resolve.trieRows'] ?? 0) - rows;
    const lookup = buildLookup(
      v.notes.map((n) => ({ path: n.path, stem: n.stem, name: n.meta.name })),
      v.files.map((f) => f.path),
      [],
    );
    expect(suggestion).toBe(resolveLink(v.notes[0]!.path, link, lookup, v.root).suggestion);
    expect(JSON.parse(JSON.stringify(link)).suggestion).toBe(suggestion);
    return { rows, suggestion, reads };
  } finally {
    stopCounting();
  }
}

describe('did-you-mean on demand', () => {
  it("check runs no search for an unreported mention; reading the suggestion gives resolveLink's answer", async () => {
    const dir = vault();
    const cold = await run(dir, false);
    expect(cold.rows).toBe(0);
    expect(cold.suggestion).toBe('feedback_deploy-staging.md');
    expect(cold.reads).toBeGreaterThan(0);
    // --cache: the row records "never asked"; a warm run asks only when read, and answers the same.
    await run(dir, true);
    const warm = await run(dir, true);
    expect(warm.rows).toBe(0);
    expect(warm.suggestion).toBe('feedback_deploy-staging.md');
  });
});

describe('lazyLink', () => {
  const fields = (target: string) =>
    ({
      kind: 'wikilink',
      target,
      offset: 3,
      length: 9,
      line: 1,
      column: 4,
      resolved: null,
      resolution: 'missing',
    }) as const;

  it('reads as a plain link (keys, JSON, spread) and asks once', () => {
    let asked = 0;
    const link = lazyLink(fields('a'), () => (asked++, 'b'));
    expect(suggestionPending(link)).toBe(true);
    expect(Object.isFrozen(link)).toBe(true);
    expect(Object.keys(link)).toEqual([...Object.keys(fields('a')), 'suggestion']);
    expect(JSON.stringify(link)).toBe(JSON.stringify({ ...fields('a'), suggestion: 'b' }));
    expect({ ...link }).toEqual({ ...fields('a'), suggestion: 'b' });
    expect(link.suggestion).toBe('b');
    expect(asked).toBe(1);
    expect(suggestionPending(link)).toBe(false);
    expect(suggestionPending({ ...link })).toBe(false);
  });

  it('gives every lazy link the same getter (one shape for V8, not a dictionary object per link)', () => {
    const getter = (l: object) => Object.getOwnPropertyDescriptor(l, 'suggestion')?.get;
    const a = lazyLink(fields('a'), () => null);
    const b = lazyLink(fields('b'), () => 'x');
    expect(getter(a)).toBeTypeOf('function');
    expect(getter(a)).toBe(getter(b));
    expect([a.suggestion, b.suggestion]).toEqual([null, 'x']);
  });
});
