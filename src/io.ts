/** What a command may touch of the outside world; tests pass their own. */
export interface Writable {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface IO {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Reads all of standard input (guard drafts, hook payloads). */
  readonly readStdin: () => Promise<string>;
  readonly stdinIsTTY: boolean;
  /** Asks a person one line (interactive commands); null at end of input. */
  readonly ask?: (question: string) => Promise<string | null>;
  /** Asks for one key press (no Enter needed) in a terminal; null at end of input. */
  readonly key?: (question: string) => Promise<string | null>;
  /** Runs the CLI with these arguments (command `command`) on a worker thread (commands/isolate.ts); null: run here. The CLI only. */
  readonly isolate?: (command: string, argv: readonly string[]) => Promise<number> | null;
}

export function useColor(io: IO, stream: Writable): boolean {
  return Boolean(stream.isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}
