/**
 * File rules on a second thread (`check` of a large vault). The rules in `PORTABLE_RULES` read one
 * file and their options, nothing else of the vault (the security rules, memory/data-dump,
 * memory/session-residue: most of a cold check of a large vault). While the main thread parses the
 * vault, resolves its links and runs the other rules, a worker runs those on the same bytes, with the
 * main thread's parse (its front matter, metadata and code ranges) sent beside them: the engine then takes their findings through the `FileFindingsCache` interface
 * (`runRules`), as it takes those of `check --cache`, and computes any the worker did not give.
 *
 * The worker gets the bytes the main thread read (never a second read that could see another
 * version of a file), in batches, and starts only once the vault has passed `WORKER_MIN_BYTES` with files
 * of `WORKER_MIN_AVERAGE_BYTES` on average: below that a thread costs more than it saves. `MEMLINT_WORKERS=0` turns it off, `=1` starts it whatever the
 * size (tests). A worker that fails, or is silent for `STALL_MS`, is given up: the main thread runs
 * the rules itself. The answers are the same either way (test/parallel-rules.test.ts).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Config } from '../config/schema.js';
import type { ParsedFile, VaultFile, VaultKind } from '../vault/model.js';
import type { FileFindingsCache } from './engine.js';
import type { Finding, Rule } from './types.js';
import { PORTABLE_RULES } from './portable.js';
import { plainRecord, type PlainRecord } from '../vault/reused.js';
import { count } from '../util/counters.js';

/** Bytes of files read before a worker is started: below it (every corpus vault, the pre-commit hook's case) one thread is as fast. */
export const WORKER_MIN_BYTES = 2 * 1024 * 1024;
/**
 * Bytes per file, on average, below which no worker is started: the portable rules' work grows with the
 * text, the rest of check's with the files and links. Measured on 2 cores (BENCHMARKS.md, session 8): the
 * old bench shape (~600 bytes a note) gained no wall time and spent 25% more CPU; the hard shape (~6 KB) 39%
 * less wall time for the same CPU. Real notes average 2.5–9 KB in the corpus's largest vaults.
 */
export const WORKER_MIN_AVERAGE_BYTES = 2048;
/** Bytes per batch posted to the worker. */
const BATCH_BYTES = 256 * 1024;
/** A worker silent this long while the main thread waits for it is given up. */
const STALL_MS = 30_000;
/** A worker that has not started running this long after it was made (its code failed to load) is given up. */
const START_MS = 5_000;

const PORTABLE_IDS = new Set(PORTABLE_RULES.map((r) => r.id));

/** The rules in the order `check` runs them with a worker: the portable ones last (the worker's work overlaps the rest). */
export function portableLast(rules: readonly Rule<any>[]): readonly Rule<any>[] {
  return [...rules.filter((r) => !PORTABLE_IDS.has(r.id)), ...rules.filter((r) => PORTABLE_IDS.has(r.id))];
}

/** What the worker needs of one file to parse it as the main thread did. */
export interface PostedFile {
  readonly path: string;
  readonly absPath: string;
  readonly role: ParsedFile['role'];
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly maxBytes: number;
  /** Which of the batch's shared buffers holds its bytes (read into an arena, src/util/arena.ts), or -1: the batch's own buffer. */
  readonly arena: number;
  /** Where its bytes are in that buffer. */
  readonly start: number;
  readonly end: number;
  /** The main thread's parse, for a file that decoded without a problem (else the worker parses the bytes). */
  readonly record: PlainRecord | null;
}

export interface Batch {
  readonly files: readonly PostedFile[];
  /** The bytes of the files not read into a shared buffer, copied one after another (transferred). */
  readonly bytes: Uint8Array;
  /** Shared buffers holding the other files' bytes (shared with the worker, not copied). */
  readonly arenas: readonly SharedArrayBuffer[];
}

/**
 * The worker's answer for a batch (or an error): the rules the engine ran on every file of it, and the
 * findings that are not empty, by the file's place in the batch (a file and rule not listed has none).
 * A rule that did not run on every file (it crashed on one) is not in `ran`: the main thread runs it.
 */
export type BatchResult =
  | {
      readonly ran: readonly string[];
      readonly findings: readonly (readonly [file: number, ruleId: string, findings: readonly Finding[]])[];
    }
  | { readonly error: string };

const NONE: readonly Finding[] = Object.freeze([]);

/** Where the worker's code is: beside this module (the library), or beside the bundle (the CLI). */
function workerFile(): string | null {
  const here = import.meta.url;
  const file = fileURLToPath(new URL(here.endsWith('.cjs') ? './parallel-worker.cjs' : './parallel-worker.js', here));
  return existsSync(file) ? file : null;
}

export class FileRuleWorker implements FileFindingsCache {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  /** [0]: batches answered (the worker adds one and notifies after each post); [1]: 1 once the worker runs. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  /** Files parsed since the last batch; their records are made only when a worker takes them. */
  private pending: { p: ParsedFile; maxBytes: number }[] = [];
  private pendingBytes = 0;
  private totalBytes = 0;
  private files = 0;
  private posted = 0;
  private answered = 0;
  private failed = false;
  /** Findings that are not empty, by path and rule. */
  private readonly results = new Map<string, Map<string, readonly Finding[]>>();
  /** The batch each posted file is in: a file not among them is never waited for. */
  private readonly batchOf = new Map<string, number>();
  /** Per batch answered, the rules that ran on every file of it. */
  private readonly ran: (ReadonlySet<string> | undefined)[] = [];
  /** Per batch posted, its files' paths (in the worker's answer, a file is its place in the batch). */
  private readonly batches: (readonly string[])[] = [];

  private kind: VaultKind | null = null;

  private constructor(
    private readonly config: Config,
    private readonly root: string,
    private readonly file: string,
    private readonly force: boolean,
  ) {}

  /** A worker for this check, or null (turned off, one core, no worker code beside this module). */
  static create(
    config: Config,
    root: string,
    env: NodeJS.ProcessEnv = process.env,
    code: string | null = workerFile(),
  ): FileRuleWorker | null {
    const setting = env.MEMLINT_WORKERS;
    if (setting === '0') return null;
    const force = setting === '1';
    if (!force && availableParallelism() < 2) return null;
    return code ? new FileRuleWorker(config, root, code, force) : null;
  }

  /** A file the main thread has just parsed (called in vault order). */
  add = (p: ParsedFile, maxBytes: number, kind: VaultKind): void => {
    if (this.failed || p.reused) return;
    this.kind ??= kind;
    this.pending.push({ p, maxBytes });
    this.pendingBytes += p.bytes.length;
    this.totalBytes += p.bytes.length;
    this.files++;
    if (
      !this.worker &&
      (this.force || (this.totalBytes >= WORKER_MIN_BYTES && this.totalBytes >= WORKER_MIN_AVERAGE_BYTES * this.files))
    )
      this.start();
    if (this.worker && this.pendingBytes >= BATCH_BYTES) this.flush();
  };

  /** Every file has been added: post what is left (nothing starts a worker past this point). */
  finish(): void {
    if (this.worker) this.flush();
    else this.pending = [];
  }

  get(file: VaultFile, ruleId: string): readonly Finding[] | undefined {
    const batch = PORTABLE_IDS.has(ruleId) ? this.batchOf.get(file.path) : undefined;
    if (batch === undefined) return undefined;
    while (this.ran[batch] === undefined && !this.failed) this.receive();
    if (!this.ran[batch]?.has(ruleId)) return undefined;
    return this.results.get(file.path)?.get(ruleId) ?? NONE;
  }

  set(): void {
    /* the worker's findings are not kept beyond the run */
  }

  /** Batches posted and answered, and whether the worker was given up (MEMLINT_TIMING prints them). */
  stats(): string {
    return this.posted === 0
      ? 'no worker'
      : `worker: ${this.answered} of ${this.posted} batches answered${this.failed ? ', given up' : ''}`;
  }

  /** Ends the worker (its thread is not waited for). */
  close(): void {
    this.port?.close();
    void this.worker?.terminate();
    this.worker = null;
  }

  private start(): void {
    const { port1, port2 } = new MessageChannel();
    try {
      this.worker = new Worker(this.file, {
        workerData: { config: this.config, kind: this.kind, root: this.root, port: port2, signal: this.signal },
        transferList: [port2],
        // Its phases and counters are not the run's (MEMLINT_TIMING, MEMLINT_COUNTERS print the main thread's).
        env: { ...process.env, MEMLINT_TIMING: '0', MEMLINT_COUNTERS: '0' },
        stdout: false,
        stderr: false,
      });
    } catch {
      this.failed = true;
      return;
    }
    this.worker.unref();
    this.worker.on('error', () => {
      this.failed = true;
    });
    this.port = port1;
    this.port.unref();
  }

  private flush(): void {
    if (!this.worker || this.pending.length === 0) return;
    // Bytes read into a shared arena are posted as the arena (shared, not copied). The others are copied into one
    // buffer per batch, transferred: a file's bytes may be a view of a larger pooled buffer, which a structured
    // clone would copy whole.
    let copied = 0;
    for (const { p } of this.pending) if (!(p.bytes.buffer instanceof SharedArrayBuffer)) copied += p.bytes.length;
    const bytes = new Uint8Array(copied);
    const arenas: SharedArrayBuffer[] = [];
    const files: PostedFile[] = [];
    let at = 0;
    for (const { p, maxBytes } of this.pending) {
      const shared = p.bytes.buffer instanceof SharedArrayBuffer ? p.bytes.buffer : null;
      let arena = -1,
        start = at;
      if (shared) {
        arena = arenas.lastIndexOf(shared);
        if (arena < 0) arena = arenas.push(shared) - 1;
        start = p.bytes.byteOffset;
      } else {
        bytes.set(p.bytes, at);
        at += p.bytes.length;
      }
      files.push({
        path: p.path,
        absPath: p.absPath,
        role: p.role,
        size: p.size,
        mtimeMs: p.mtimeMs,
        mode: p.mode,
        maxBytes,
        arena,
        start,
        end: start + p.bytes.length,
        record: p.problem === null ? plainRecord(p) : null,
      });
      this.batchOf.set(p.path, this.posted);
    }
    count('parallel.copiedBytes', copied);
    count('parallel.sharedFiles', files.length - files.filter((f) => f.arena < 0).length);
    this.pending = [];
    this.pendingBytes = 0;
    const batch: Batch = { files, bytes, arenas };
    this.worker.postMessage(batch, [bytes.buffer]);
    this.batches.push(files.map((f) => f.path));
    this.posted++;
  }

  /** Takes the worker's next answer, waiting for it (the engine is synchronous). */
  private receive(): void {
    const port = this.port;
    if (!port) {
      this.failed = true;
      return;
    }
    if (Atomics.load(this.signal, 1) === 0 && Atomics.wait(this.signal, 1, 0, START_MS) === 'timed-out') {
      this.failed = true;
      return;
    }
    const seen = Atomics.load(this.signal, 0);
    const m = receiveMessageOnPort(port);
    if (m) {
      const batch = this.answered++;
      const r = m.message as BatchResult;
      if ('error' in r) {
        this.failed = true;
        return;
      }
      const files = this.batches[batch]!;
      for (const [at, ruleId, findings] of r.findings) {
        const path = files[at]!;
        let byRule = this.results.get(path);
        if (!byRule) this.results.set(path, (byRule = new Map()));
        byRule.set(ruleId, findings);
      }
      this.ran[batch] = new Set(r.ran);
      return;
    }
    if (Atomics.wait(this.signal, 0, seen, STALL_MS) === 'timed-out' && Atomics.load(this.signal, 0) === seen)
      this.failed = true;
  }
}
