#!/usr/bin/env node
import { runIsolated } from './commands/isolate.js';
import { main } from './main.js';
import { readStdin as readAll } from './util/stdin.js';
import { fdWriter, isTerminal, stdStream } from './util/stdout.js';

// `process.stdin` is created only when a command needs the stream (its set-up is a cost every guard call paid).
let stdinStream = false;
const stdin = (): AsyncIterable<Buffer> => {
  stdinStream = true;
  return process.stdin as AsyncIterable<Buffer>;
};
const readStdin = (): Promise<string> => readAll(stdin);

let lines: AsyncIterator<string> | null = null;
// Output is written with writeSync (util/stdout.ts): `process.stdout` is made only for the interactive questions below.
// `memlint check | head -1`: the reader left; the writers stop quietly instead of throwing EPIPE with a stack trace.
const stdout = fdWriter(1);
const stderr = fdWriter(2);

const ask = async (question: string): Promise<string | null> => {
  stdStream(1).write(question);
  stdinStream = true;
  if (!lines) {
    const { createInterface } = await import('node:readline');
    lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  }
  const next = await lines.next();
  return next.done ? null : next.value;
};

/** One key press: the terminal in raw mode while waiting; keys typed ahead are kept in order. */
const typed: string[] = [];
let ended = false;
let waiting: (() => void) | null = null;
let listening = false;
const key = async (question: string): Promise<string | null> => {
  stdStream(1).write(question);
  stdinStream = true;
  if (!listening) {
    listening = true;
    process.stdin.on('data', (d: Buffer) => {
      typed.push(...d.toString('utf8'));
      waiting?.();
    });
    process.stdin.on('end', () => {
      ended = true;
      waiting?.();
    });
  }
  const raw = Boolean(process.stdin.isTTY);
  if (raw) process.stdin.setRawMode(true);
  process.stdin.resume();
  try {
    for (;;) {
      while (typed.length) {
        const c = typed.shift()!;
        if (c === '\u0003' || c === '\u0004') return null; // Ctrl-C, Ctrl-D: quit
        if (!/\s/.test(c)) return c;
      }
      if (ended) return null;
      await new Promise<void>((r) => {
        waiting = r;
      });
      waiting = null;
    }
  } finally {
    process.stdin.pause();
    if (raw) process.stdin.setRawMode(false);
  }
};
// No top-level await: the binary is a CommonJS bundle (scripts/bundle.mjs says why).
void main({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout,
  stderr,
  readStdin,
  stdinIsTTY: isTerminal(0),
  ask,
  key,
  isolate: (command, argv) => runIsolated(command, argv, process.env, stderr),
}).then((code) => {
  process.exitCode = code;
  if (stdinStream) process.stdin.destroy();
});
