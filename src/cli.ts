#!/usr/bin/env node
import { main } from './main.js';

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

let lines: AsyncIterator<string> | null = null;
const ask = async (question: string): Promise<string | null> => {
  process.stdout.write(question);
  if (!lines) {
    const { createInterface } = await import('node:readline');
    lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  }
  const next = await lines.next();
  return next.done ? null : next.value;
};

// No top-level await: the binary is a CommonJS bundle (scripts/bundle.mjs says why).
void main({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  ask,
}).then((code) => {
  process.exitCode = code;
  process.stdin.destroy();
});
