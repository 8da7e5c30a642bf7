import { mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { statFile, statFileWay } from '../src/util/file-stat.js';
import { tempDir } from './helpers/run.js';

const CORPUS = join(process.cwd(), '..', 'shared', 'corpus');

const fields = (st: { size: number; mtimeMs: number; ctimeMs: number; ino: number; mode: number } | undefined) =>
  st === undefined
    ? undefined
    : { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode };

describe("statFile: statSync's size, times, inode and mode, cheaper", () => {
  it("answers through Node's binding here (the fast way is the one these tests check)", () => {
    statFile(process.execPath);
    // Node 20 on Linux offers it; were this to say statSync, the comparisons below would prove nothing new.
    expect(statFileWay()).toBe('binding');
  });

  it('equals statSync on every corpus file and on files with sub-millisecond and old times', () => {
    const files = fg.sync('**/*', { cwd: CORPUS, absolute: true, dot: true, onlyFiles: true });
    expect(files.length).toBeGreaterThan(300);
    const dir = tempDir();
    const made: string[] = [];
    const times = [0.0005, 1.25, 1_000_000_000.123456, 1_700_000_000.987654, 4_102_444_800.5, -86_400.25];
    times.forEach((t, i) => {
      const f = join(dir, `t${i}.md`);
      writeFileSync(f, 'x'.repeat(i * 37));
      utimesSync(f, t, t);
      made.push(f);
    });
    mkdirSync(join(dir, 'sub'));
    symlinkSync(made[2]!, join(dir, 'link.md'));
    made.push(join(dir, 'sub'), join(dir, 'link.md'));
    let compared = 0;
    for (const f of [...files, ...made]) {
      expect(fields(statFile(f)), f).toEqual(fields(statSync(f)));
      compared++;
    }
    expect(compared).toBe(files.length + made.length);
  });

  it('is undefined where nothing is, and throws where statSync throws', () => {
    const dir = tempDir();
    const file = join(dir, 'a.md');
    writeFileSync(file, 'a');
    expect(statFile(join(dir, 'missing.md'))).toBeUndefined();
    // A file used as a folder: ENOTDIR, thrown by statSync too.
    expect(() => statSync(join(file, 'x.md'), { throwIfNoEntry: false })).toThrow(/ENOTDIR/);
    expect(() => statFile(join(file, 'x.md'))).toThrow(/ENOTDIR/);
    // A NUL never reaches the binding (C++ would cut the path there): statSync's own error.
    expect(() => statFile(`${file}\0.md`)).toThrow(/null bytes/);
  });
});
