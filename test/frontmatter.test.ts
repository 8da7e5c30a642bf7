import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../src/vault/frontmatter.js';
import { readMeta } from '../src/vault/meta.js';

const require = createRequire(import.meta.url);

describe('front matter is parsed safely', () => {
  const marker = join(tmpdir(), `memlint-js-frontmatter-${process.pid}`);
  const jsNote = `---js\n{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'x') }\n---\nbody\n`;

  it('gray-matter 4.0.3 with defaults executes ---js front matter (why memlint does not use it that way)', () => {
    rmSync(marker, { force: true });
    const matter = require('gray-matter');
    try {
      matter(jsNote);
    } catch {
      /* it may throw after running the code */
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker, { force: true });
  });

  it('memlint never runs it and reports it instead', () => {
    rmSync(marker, { force: true });
    const fm = splitFrontmatter(jsNote)!;
    expect(existsSync(marker)).toBe(false);
    expect(fm.data).toBeNull();
    expect(fm.error?.message).toMatch(/'js' is not YAML; memlint never evaluates it/);
  });

  it('gray-matter caches a failed parse; memlint reports the same error every time', () => {
    const bad = '---\nname: a\ndescription: Fix: quote me\n---\nbody\n';
    const matter = require('gray-matter');
    let first: unknown;
    try {
      matter(bad);
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(Error);
    expect(matter(bad).data).toEqual({}); // the second read silently "succeeds" with nothing
    expect(splitFrontmatter(bad)!.error).not.toBeNull();
    expect(splitFrontmatter(bad)!.error).not.toBeNull();
  });

  it('keeps 1.10 as written and reads dates as strings', () => {
    const fm = splitFrontmatter('---\nname: a\nversion: 1.10\nmetadata:\n  modified: 2026-11-18T09:00:00Z\n---\n')!;
    expect(fm.error).toBeNull();
    expect(readMeta(fm.data).modified).toBe('2026-11-18T09:00:00Z');
  });

  it('reads the three real-world shapes', () => {
    const flat = readMeta(splitFrontmatter('---\nname: a\ndescription: d\ntype: user\n---\n')!.data);
    const nested = readMeta(
      splitFrontmatter(
        '---\nname: a\ndescription: d\nmetadata:\n  type: feedback\n  originSessionId: s1\n  modified: m\n---\n',
      )!.data,
    );
    const origin = readMeta(splitFrontmatter('---\ntype: project\noriginSessionId: s2\n---\n')!.data);
    expect([flat.shape, flat.type]).toEqual(['flat', 'user']);
    expect([nested.shape, nested.type, nested.origin, nested.modified]).toEqual([
      'nested-metadata',
      'feedback',
      's1',
      'm',
    ]);
    expect([origin.shape, origin.origin, origin.name]).toEqual(['flat-with-origin', 's2', null]);
  });

  it('an alias bomb is refused quickly', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const started = performance.now();
    const fm = splitFrontmatter(`---\n${lines.join('\n')}\n---\n`)!;
    expect(fm.error?.message).toMatch(/alias/i);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
