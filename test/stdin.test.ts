// Standard input read synchronously (src/util/stdin.ts): every byte once, whatever the descriptor does.
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStdin, readStdinSync, type ReadInto } from '../src/util/stdin.js';
import { CLI, tempDir } from './helpers/run.js';

/** A descriptor that hands out these pieces in turn (a string: bytes; an error code: thrown), then the end. */
function reader(pieces: string[]): ReadInto {
  let k = 0;
  return (_fd, buf) => {
    const p = pieces[k++];
    if (p === undefined) return 0;
    if (/^E[A-Z]+$/.test(p)) throw Object.assign(new Error(p), { code: p });
    return buf.write(p);
  };
}
async function* stream(pieces: string[]): AsyncIterable<Buffer> {
  for (const p of pieces) yield Buffer.from(p);
}

describe('readStdinSync', () => {
  it('reads every chunk to the end', () => {
    const r = readStdinSync(reader(['ab', 'cd', 'é']));
    expect(r.done).toBe(true);
    expect(Buffer.concat(r.chunks).toString()).toBe('abcdé');
  });
  it('retries an interrupted read and takes EOF (a Windows pipe) as the end', () => {
    const r = readStdinSync(reader(['ab', 'EINTR', 'cd', 'EOF', 'never']));
    expect(r.done).toBe(true);
    expect(Buffer.concat(r.chunks).toString()).toBe('abcd');
  });
  it('stops without losing what it read when the descriptor would block', () => {
    const r = readStdinSync(reader(['ab', 'EAGAIN', 'cd']));
    expect(r.done).toBe(false);
    expect(Buffer.concat(r.chunks).toString()).toBe('ab');
  });
});

describe('readStdin', () => {
  it('reads the rest from the stream after a read that would block, each byte once', async () => {
    let made = 0;
    const text = await readStdin(
      () => {
        made++;
        return stream(['cd', 'ef']);
      },
      reader(['ab', 'EAGAIN']),
    );
    expect(text).toBe('abcdef');
    expect(made).toBe(1);
  });
  it('never creates the stream when the descriptor reads to its end', async () => {
    let made = 0;
    const text = await readStdin(
      () => {
        made++;
        return stream(['x']);
      },
      reader(['ab', 'cd']),
    );
    expect(text).toBe('abcd');
    expect(made).toBe(0);
  });
});

describe('memlint guard reads a long draft whole, from a pipe and from a file', () => {
  // A secret after 300 KB of text: guard reports it only if it read past every 64 KB chunk.
  const filler = 'The deploy notes say the staging cluster restarts nightly at two.\n'.repeat(4800);
  const draft = `---\nname: long\ndescription: a long draft\ntype: project\n---\n${filler}\nkey AKIAIOSFODNN7EXAMPLQ here\n`;
  it.each(['pipe', 'file'] as const)('%s', (how) => {
    const dir = tempDir();
    const vault = join(dir, 'vault');
    mkdirSync(vault);
    writeFileSync(join(vault, 'MEMORY.md'), '# Memory\n');
    let fd: number | undefined;
    if (how === 'file') {
      writeFileSync(join(dir, 'draft.md'), draft);
      fd = openSync(join(dir, 'draft.md'), 'r');
    }
    try {
      const r = spawnSync(process.execPath, [CLI, 'guard', vault, '--format', 'json'], {
        ...(fd === undefined ? { input: draft } : { stdio: [fd, 'pipe', 'pipe'] }),
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { problems: { ruleId: string }[] };
      expect(out.problems.map((p) => p.ruleId)).toContain('security/secret');
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  });
});
