/**
 * Standard output and error without `process.stdout` / `process.stderr`, and terminal tests without `node:tty`.
 * Creating either stream, or loading `node:tty` (it loads `net` and the stream classes), cost a guard call ~45 M
 * instructions, ~5 ms (BENCHMARKS.md "guard, session 14"), on every call, for a few hundred bytes of output. So
 * the CLI writes with `writeSync` on the descriptor, and asks whether a descriptor is a terminal only when `fstat`
 * says it may be one (a pipe, a file or a socket never is).
 */
import { fstatSync, writeSync } from 'node:fs';

export type Fd = 0 | 1 | 2;

/** What the writer needs of the system (tests pass their own). */
export interface FdSystem {
  writeSync(fd: number, buf: Uint8Array, offset: number, length: number): number;
  /** The stream to hand the rest to when a synchronous write cannot go on (a non-blocking descriptor that is full). */
  stream(fd: 1 | 2): { write(chunk: Uint8Array): unknown };
  isatty(fd: number): boolean;
  /** undefined: fstat failed (a closed descriptor). */
  isCharacterDevice(fd: number): boolean | undefined;
  /** The reader left (EPIPE): stop quietly, as `memlint check | head -1` expects. */
  exit(): never;
}

const quietExit = (): never => process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);

const streams = new Set<NodeJS.WriteStream>();
/** `process.stdout` or `process.stderr`, made here only when needed, ending quietly when its reader left. */
export function stdStream(fd: 1 | 2): NodeJS.WriteStream {
  const s = fd === 1 ? process.stdout : process.stderr;
  if (!streams.has(s)) {
    streams.add(s);
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') quietExit();
      throw e;
    });
  }
  return s;
}

const system: FdSystem = {
  writeSync: (fd, buf, offset, length) => writeSync(fd, buf, offset, length),
  stream: stdStream,
  isatty: (fd) => process.getBuiltinModule('node:tty').isatty(fd),
  isCharacterDevice: (fd) => {
    try {
      return fstatSync(fd).isCharacterDevice();
    } catch {
      return undefined;
    }
  },
  exit: quietExit,
};

/** `tty.isatty(fd)`, with `node:tty` loaded only for a character device (a terminal is one; on Windows, always asked). */
export function isTerminal(fd: Fd, sys: FdSystem = system, platform: string = process.platform): boolean {
  if (platform !== 'win32') {
    const chr = sys.isCharacterDevice(fd);
    if (chr === undefined) return false;
    if (!chr) return false;
  }
  return sys.isatty(fd);
}

export interface FdWriter {
  write(chunk: string): boolean;
  readonly isTTY: boolean;
}

/**
 * A writer on descriptor 1 or 2: each chunk written whole with `writeSync` (the order of output is the order of the
 * calls). A descriptor that would block (EAGAIN: a non-blocking pipe that is full) hands that chunk's rest, and every
 * later chunk, to the stream, which queues them in order. A reader that left (EPIPE) ends the process quietly.
 */
export function fdWriter(fd: 1 | 2, sys: FdSystem = system, platform: string = process.platform): FdWriter {
  let stream: { write(chunk: Uint8Array): unknown } | null = null;
  let tty: boolean | undefined;
  return {
    write(chunk) {
      const buf = Buffer.from(chunk, 'utf8');
      if (stream) {
        stream.write(buf);
        return true;
      }
      let off = 0;
      while (off < buf.length) {
        try {
          off += sys.writeSync(fd, buf, off, buf.length - off);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EINTR') continue;
          if (code === 'EPIPE') sys.exit();
          if (code !== 'EAGAIN') throw e;
          stream = sys.stream(fd);
          stream.write(buf.subarray(off));
          return true;
        }
      }
      return true;
    },
    get isTTY() {
      return (tty ??= isTerminal(fd, sys, platform));
    },
  };
}
