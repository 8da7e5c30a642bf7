/**
 * Standard input read synchronously: a piped draft is read without creating `process.stdin` (a stream
 * whose set-up cost guard, run once per write, paid on every call: BENCHMARKS.md "guard, session 12").
 */
import { readSync } from 'node:fs';

/** Reads up to `buf.length` bytes of file descriptor `fd` into `buf`; 0 at the end. */
export type ReadInto = (fd: number, buf: Buffer) => number;

const readInto: ReadInto = (fd, buf) => readSync(fd, buf, 0, buf.length, null);

/**
 * Reads descriptor 0 to its end. `done: false` when it cannot be read synchronously (non-blocking and
 * empty for now, closed, or any other error): `chunks` holds what was read before that, and the caller
 * reads the rest from `process.stdin`, so no byte is lost or read twice.
 */
export function readStdinSync(read: ReadInto = readInto): { chunks: Buffer[]; done: boolean } {
  const chunks: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(65_536);
    let n: number;
    try {
      n = read(0, buf);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EINTR') continue;
      // Windows reports the end of a pipe as an error.
      if (code === 'EOF') return { chunks, done: true };
      return { chunks, done: false };
    }
    if (n === 0) return { chunks, done: true };
    chunks.push(buf.subarray(0, n));
  }
}

/** All of standard input as UTF-8: read synchronously, and what could not be read so from `stream()` (created only then). */
export async function readStdin(stream: () => AsyncIterable<Buffer>, read: ReadInto = readInto): Promise<string> {
  const { chunks, done } = readStdinSync(read);
  if (!done) for await (const chunk of stream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
