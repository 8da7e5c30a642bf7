/**
 * State in VAULT/.memlint/: a lock (one writer at a time), and per run a folder with the
 * content-addressed pre- and post-images of every file it touches and an fsynced journal.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { sha256Hex } from '../util/digest.js';
import { writeFileAtomic, fsyncDir } from '../util/atomic.js';
import { StateError } from '../util/errors.js';
import { STATE_DIR, safeStateDir } from '../util/state-dir.js';
import { unsafePath } from './paths.js';

export { StateError } from '../util/errors.js';
export { STATE_DIR } from '../util/state-dir.js';

/** A run id as newRunId makes it: the only names a run folder (and `undo RUN_ID`) may have. */
export const RUN_ID = /^\d{8}-\d{6}-[0-9a-z]{1,16}$/;
const SHA = /^[0-9a-f]{64}$/;

// The journal travels with the vault (a cloned memory repository may carry a crafted one): every
// record is read through this schema, and every path in it is checked as a proposal's paths are.
const imageRef = z.strictObject({
  sha: z.string().regex(SHA),
  mode: z.number().int().min(0).max(0o7777),
  mtimeMs: z.number().finite().optional(),
});
const changeRecord = z.strictObject({
  path: z.string(),
  before: imageRef.nullable(),
  after: imageRef.nullable(),
  item: z.string(),
});
const runId = z.string().regex(RUN_ID);
/** Recover's copies of files edited after a crash (neither the pre- nor the post-image). */
const kept = z.strictObject({ path: z.string(), sha: z.union([z.string().regex(SHA), z.literal('absent')]) });
const journalRecord = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('BEGIN'),
    runId,
    kind: z.enum(['apply', 'undo']),
    at: z.string(),
    proposal: z.string().optional(),
    undoes: runId.optional(),
    items: z.array(z.strictObject({ id: z.string(), status: z.string() })),
    changes: z.array(changeRecord),
    createdDirs: z.array(z.string()),
    preserved: z
      .array(z.strictObject({ path: z.string(), sha: z.union([z.string().regex(SHA), z.literal('absent')]) }))
      .optional(),
    git: z
      .strictObject({
        pre: z
          .string()
          .regex(/^[0-9a-f]{40,64}$/)
          .optional(),
      })
      .optional(),
  }),
  z.strictObject({ type: z.literal('APPLIED'), index: z.number().int().min(0) }),
  z.strictObject({
    type: z.literal('COMMIT'),
    at: z.string(),
    git: z
      .strictObject({
        post: z
          .string()
          .regex(/^[0-9a-f]{40,64}$/)
          .optional(),
      })
      .optional(),
    kept: z.array(kept).optional(),
  }),
  z.strictObject({ type: z.literal('ROLLEDBACK'), at: z.string(), kept: z.array(kept).optional() }),
  z.strictObject({ type: z.literal('UNDONE'), by: runId, at: z.string() }),
]);

export type ImageRef = z.infer<typeof imageRef>;
export type ChangeRecord = z.infer<typeof changeRecord>;
export type JournalRecord = z.infer<typeof journalRecord>;

/** Test-only: MEMLINT_TEST_CRASH_AT_STEP=k kills the process with SIGKILL before durable write k. */
let step = 0;
export function writeStep(): void {
  step++;
  const at = process.env.MEMLINT_TEST_CRASH_AT_STEP;
  if (at !== undefined && Number(at) === step) process.kill(process.pid, 'SIGKILL');
}

export class RunStore {
  constructor(readonly vaultRoot: string) {}

  get stateDir(): string {
    return join(this.vaultRoot, STATE_DIR);
  }
  runDir(id: string): string {
    if (!RUN_ID.test(id)) throw new StateError(`${JSON.stringify(id)} is not a run id`);
    return join(this.stateDir, 'runs', id);
  }

  /** The run folder (or a folder under it), checked before anything is written there. */
  private writableDir(id: string, ...sub: string[]): string {
    this.runDir(id);
    return safeStateDir(this.vaultRoot, 'runs', id, ...sub);
  }

  putObject(id: string, bytes: Uint8Array): string {
    const sha = sha256Hex(bytes);
    const dir = this.writableDir(id, 'objects');
    const file = join(dir, sha);
    if (!existsSync(file)) {
      writeStep();
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(file, bytes, 0o600);
    }
    return sha;
  }

  getObject(id: string, sha: string): Buffer {
    if (!SHA.test(sha)) throw new StateError(`run ${id}: ${JSON.stringify(sha)} is not an image id`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.runDir(id), 'objects', sha));
    } catch {
      throw new StateError(`run ${id}: stored image ${sha.slice(0, 12)} is missing`);
    }
    if (sha256Hex(bytes) !== sha) throw new StateError(`run ${id}: stored image ${sha.slice(0, 12)} is corrupt`);
    return bytes;
  }

  append(id: string, record: JournalRecord): void {
    writeStep();
    const dir = this.writableDir(id);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'journal.jsonl');
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    fsyncDir(dir);
  }

  read(id: string): JournalRecord[] {
    const file = join(this.runDir(id), 'journal.jsonl');
    if (!existsSync(file)) return [];
    const out: JournalRecord[] = [];
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [n, line] of lines.entries()) {
      if (!line.trim()) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        break;
      } // a torn last line: the write never completed
      const parsed = journalRecord.safeParse(json);
      if (!parsed.success)
        throw new StateError(`run ${id}: journal line ${n + 1} is not a memlint journal record; refusing the run`);
      const record = parsed.data;
      if (record.type === 'BEGIN') {
        const paths = [
          ...record.changes.map((c) => c.path),
          ...record.createdDirs,
          ...(record.preserved ?? []).map((p) => p.path),
        ];
        for (const p of paths) {
          const why = unsafePath(this.vaultRoot, p, { state: true });
          if (why)
            throw new StateError(`run ${id}: the journal names a path memlint never writes: ${why}; refusing the run`);
        }
      }
      out.push(record);
    }
    return out;
  }

  list(): string[] {
    const dir = join(this.stateDir, 'runs');
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((d) => RUN_ID.test(d))
          .sort()
      : [];
  }

  /** The committed undo run that undid `id`, if any: derived, so a crash between the two journals cannot lose it. */
  undoneBy(id: string): string | null {
    for (const other of this.list()) {
      if (other === id) continue;
      const records = this.read(other);
      const begin = records.find((r) => r.type === 'BEGIN');
      if (begin && begin.type === 'BEGIN' && begin.undoes === id && records.some((r) => r.type === 'COMMIT'))
        return other;
    }
    return null;
  }

  status(id: string): 'committed' | 'undone' | 'rolled-back' | 'interrupted' | 'empty' {
    const records = this.read(id);
    if (!records.some((r) => r.type === 'BEGIN')) return 'empty';
    if (records.some((r) => r.type === 'UNDONE') || (records.some((r) => r.type === 'COMMIT') && this.undoneBy(id)))
      return 'undone';
    if (records.some((r) => r.type === 'COMMIT')) return 'committed';
    if (records.some((r) => r.type === 'ROLLEDBACK')) return 'rolled-back';
    return 'interrupted';
  }

  interrupted(): string[] {
    return this.list().filter((id) => this.status(id) === 'interrupted');
  }

  /** Every command that writes calls this first: after a crash nothing writes until recover. */
  refuseIfInterrupted(): void {
    const runs = this.interrupted();
    if (runs.length)
      throw new StateError(
        `run ${runs.join(', ')} was interrupted before it finished; run \`memlint recover ${this.vaultRoot}\` first (it rolls back by default, --forward finishes the run)`,
      );
  }
}

export interface LockInfo {
  pid: number;
  host: string;
  command: string;
  at: string;
}

export class Lock {
  private constructor(private readonly file: string) {}

  static path(vaultRoot: string): string {
    return join(vaultRoot, STATE_DIR, 'lock');
  }

  static acquire(vaultRoot: string, command: string): Lock {
    const file = Lock.path(vaultRoot);
    mkdirSync(safeStateDir(vaultRoot), { recursive: true }); // the .gitignore is written when a run starts (execute.ts)
    const info: LockInfo = { pid: process.pid, host: hostname(), command, at: new Date().toISOString() };
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      fsyncSync(fd);
      closeSync(fd);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = Lock.read(vaultRoot);
      const alive = held ? Lock.alive(held) : false;
      throw new StateError(
        `the vault is locked by ${held ? `memlint ${held.command} (pid ${held.pid} on ${held.host}, since ${held.at})` : 'an unreadable lock'}${alive ? '' : '; that process is gone: the lock is stale. If no memlint runs, `memlint recover` reports and clears it'}`,
      );
    }
    return new Lock(file);
  }

  static read(vaultRoot: string): LockInfo | null {
    try {
      return JSON.parse(readFileSync(Lock.path(vaultRoot), 'utf8')) as LockInfo;
    } catch {
      return null;
    }
  }

  static alive(info: LockInfo): boolean {
    if (info.host !== hostname()) return true; // cannot tell: assume it runs
    try {
      process.kill(info.pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  release(): void {
    rmSync(this.file, { force: true });
  }
}
