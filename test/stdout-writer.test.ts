/**
 * The CLI's output without `process.stdout` (src/util/stdout.ts): every byte in call order, partial writes and
 * EINTR retried, a full non-blocking pipe (EAGAIN) handed to the stream with nothing lost or reordered, a reader
 * that left (EPIPE) ending quietly; and `isTerminal` asking `node:tty` only for a character device.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fdWriter, isTerminal, type FdSystem } from '../src/util/stdout.js';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

/** A fake system: writeSync takes at most `max` bytes a call and follows a script of errors. */
function fake(script: (string | number)[] = [], max = Infinity, chr: boolean | undefined = false) {
  const written: number[] = [];
  const streamed: number[] = [];
  const calls = { isatty: 0, exit: 0 };
  const sys: FdSystem = {
    writeSync(_fd, buf, offset, length) {
      const step = script.shift();
      if (typeof step === 'string') throw errno(step);
      const n = Math.min(length, max, typeof step === 'number' ? step : Infinity);
      written.push(...buf.subarray(offset, offset + n));
      return n;
    },
    stream: () => ({ write: (chunk: Uint8Array) => streamed.push(...chunk) }),
    isatty: () => {
      calls.isatty++;
      return true;
    },
    isCharacterDevice: () => chr,
    exit: () => {
      calls.exit++;
      throw new Error('exited');
    },
  };
  const text = (a: number[]): string => Buffer.from(a).toString('utf8');
  return { sys, calls, out: () => text(written), streamed: () => text(streamed) };
}

describe('fdWriter', () => {
  it('writes every chunk whole and in order, through partial writes and EINTR', () => {
    const f = fake([3, 'EINTR', 1, 'EINTR'], 4);
    const w = fdWriter(1, f.sys, 'linux');
    w.write('héllo, ');
    w.write('wörld 端口\n');
    expect(f.out()).toBe('héllo, wörld 端口\n');
    expect(f.streamed()).toBe('');
  });

  it('hands the rest of a chunk and every later chunk to the stream when the descriptor would block', () => {
    const f = fake([2, 'EAGAIN']);
    const w = fdWriter(2, f.sys, 'linux');
    w.write('abcdef');
    w.write('ghi');
    // The writer never goes back to writeSync once the stream holds bytes (they would overtake them).
    expect(f.out() + f.streamed()).toBe('abcdefghi');
    expect(f.out()).toBe('ab');
  });

  it('ends quietly when the reader left, and throws any other error', () => {
    const gone = fake(['EPIPE']);
    expect(() => fdWriter(1, gone.sys, 'linux').write('x')).toThrow('exited');
    expect(gone.calls.exit).toBe(1);
    const bad = fake(['EBADF']);
    expect(() => fdWriter(1, bad.sys, 'linux').write('x')).toThrow('EBADF');
    expect(bad.calls.exit).toBe(0);
  });
});

describe('isTerminal', () => {
  it('asks node:tty only for a character device (or on Windows)', () => {
    for (const [chr, platform, want, asked] of [
      [false, 'linux', false, 0],
      [undefined, 'linux', false, 0],
      [true, 'linux', true, 1],
      [false, 'win32', true, 1],
    ] as const) {
      const f = fake([], Infinity, chr);
      expect(isTerminal(0, f.sys, platform)).toBe(want);
      expect(f.calls.isatty).toBe(asked);
      // isTTY is asked once and kept.
      const w = fdWriter(1, f.sys, platform);
      expect([w.isTTY, w.isTTY]).toEqual([want, want]);
    }
  });

  it('is tty.isatty on real descriptors: pipes, /dev/null (a character device), a file', () => {
    // The built library (npm test builds first).
    const lib = join(process.cwd(), 'dist', 'lib', 'util', 'stdout.js');
    if (!existsSync(lib)) throw new Error('run npm run build first (npm test does)');
    const probe = `const { isTerminal } = await import(${JSON.stringify(lib)});
      const tty = await import('node:tty');
      process.stderr.write(JSON.stringify([0, 1].map((fd) => [isTerminal(fd), tty.isatty(fd)])));`;
    const file = join(mkdtempSync(join(tmpdir(), 'memlint-fd-')), 'out');
    writeFileSync(file, '');
    const out = openSync(file, 'w');
    try {
      for (const stdio of [
        ['pipe', 'pipe', 'pipe'],
        ['ignore', 'ignore', 'pipe'],
        ['pipe', out, 'pipe'],
      ] as const) {
        const r = spawnSync(process.execPath, ['--input-type=module', '--eval', probe], {
          stdio: [...stdio],
          encoding: 'utf8',
        });
        const pairs = JSON.parse(r.stderr) as [boolean, boolean][];
        expect(pairs).toHaveLength(2);
        for (const [mine, theirs] of pairs) expect(mine).toBe(theirs);
      }
    } finally {
      closeSync(out);
    }
  });
});
