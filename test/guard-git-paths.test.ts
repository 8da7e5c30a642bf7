/**
 * Issue 14: guard asks git (once) about the matches whose front matter lacks a date or an origin,
 * not about every MinHash candidate: on the hard bench shape at 10k notes 1,200 notes are candidates
 * and a `git log` over all their paths cost more than the rest of the comparison. The answer (each
 * match's age and origin from git) must be the same.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers/run.js';

const body =
  'Always use pnpm for installs in this repository; never npm or yarn, the lockfile is pnpm-lock.yaml and CI fails otherwise.';
/** Shares a few of the draft's shingles (a MinHash candidate), far below the `show` threshold. */
const partial = (i: number): string =>
  `Always use pnpm for installs in this repository. Unrelated words follow here: ${Array.from(
    { length: 40 },
    (_, k) => `word${i}x${k}`,
  ).join(' ')}.`;

describe('guard asks git only about its matches', () => {
  it('the pathspecs are the matches, and their origin is the commit', () => {
    const base = tempDir();
    const vault = join(base, 'memory');
    mkdirSync(vault);
    writeFileSync(join(vault, 'MEMORY.md'), '# Memory\n');
    for (let i = 0; i < 3; i++)
      writeFileSync(
        join(vault, `pnpm_${i}.md`),
        `---\nname: pnpm-${i}\ndescription: pnpm ${i}\ntype: feedback\n---\n${body} (${i})\n`,
      );
    for (let i = 0; i < 12; i++)
      writeFileSync(
        join(vault, `other_${i}.md`),
        `---\nname: other-${i}\ndescription: other ${i}\ntype: feedback\n---\n${partial(i)}\n`,
      );
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'tester',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 'tester',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    const g = (...a: string[]): string => execFileSync('git', a, { cwd: vault, encoding: 'utf8', env });
    g('init', '-q');
    g('add', '.');
    g('commit', '-qm', 'notes');
    const commit = g('rev-parse', 'HEAD').trim().slice(0, 12);
    // A `git` first on PATH that logs each call's arguments, one per line, then runs the real one.
    const bin = join(base, 'bin');
    mkdirSync(bin);
    const log = join(base, 'git.log');
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nfor a in "$@"; do echo "$a" >> ${log}; done\necho "--end--" >> ${log}\nexec ${execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()} "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    writeFileSync(log, '');
    const draft = join(base, 'draft.md');
    writeFileSync(draft, `---\nname: pnpm-new\ndescription: pnpm\ntype: feedback\n---\n${body}\n`);
    const run = (): { matches: { path: string; origin: string }[] } => {
      const r = spawnSync(process.execPath, [CLI, 'guard', vault, '--file', draft, '--format', 'json'], {
        encoding: 'utf8',
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME },
      });
      return JSON.parse(r.stdout) as { matches: { path: string; origin: string }[] };
    };
    const out = run();
    const matched = out.matches.map((m) => m.path).sort();
    expect(matched).toEqual(['pnpm_0.md', 'pnpm_1.md', 'pnpm_2.md']);
    for (const m of out.matches) expect(m.origin).toBe(`git ${commit} by tester`);
    const asked = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith(':(literal)'))
      .map((l) => l.slice(':(literal)'.length))
      .sort();
    // Before: every candidate's path, the other_ notes too (their MinHash estimate passes).
    expect(asked).toEqual(matched);
  });
});
