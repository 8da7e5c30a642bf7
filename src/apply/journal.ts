/**
 * State in VAULT/.memlint/: a lock (one writer at a time), and per run a folder with the
 * content-addressed pre- and post-images of every file it touches and an fsynced journal.
 */
import { ensureStateDir } from '../util/cache-dir.js';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../util/digest.js';
import { writeFileAtomic, fsyncDir } from '../util/atomic.js';
import { MemlintError } from '../util/errors.js';

export class StateError extends MemlintError {}

export const STATE_DIR = '.memlint';
export interface ImageRef { readonly sha: string; readonly mode: number; readonly mtimeMs?: number }
export interface ChangeRecord { readonly path: string; readonly before: ImageRef | null; readonly after: ImageRef | null; readonly item: string }

export type JournalRecord =
  | { type: 'BEGIN'; runId: string; kind: 'apply' | 'undo'; at: string; proposal?: string; undoes?: string; items: { id: string; status: string }[]; changes: ChangeRecord[]; createdDirs: string[]; preserved?: { path: string; sha: string }[]; git?: { pre?: string } }
  | { type: 'APPLIED'; index: number }
  | { type: 'COMMIT'; at: string; git?: { post?: string } }
  | { type: 'ROLLEDBACK'; at: string }
  | { type: 'UNDONE'; by: string; at: string };

/** Test-only: MEMLINT_TEST_CRASH_AT_STEP=k kills the process with SIGKILL before durable write k. */
let step = 0;
export function writeStep(): void {
  step++;
  const at = process.env.MEMLINT_TEST_CRASH_AT_STEP;
  if (at !== undefined && Number(at) === step) process.kill(process.pid, 'SIGKILL');
}

export class RunStore {
  constructor(readonly vaultRoot: string) {}

  get stateDir(): string { return join(this.vaultRoot, STATE_DIR); }
  runDir(id: string): string { return join(this.stateDir, 'runs', id); }

  putObject(id: string, bytes: Uint8Array): string {
    const sha = sha256Hex(bytes);
    const dir = join(this.runDir(id), 'objects');
    const file = join(dir, sha);
    if (!existsSync(file)) {
      writeStep();
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(file, bytes, 0o600);
    }
    return sha;
  }

  getObject(id: string, sha: string): Buffer {
    const bytes = readFileSync(join(this.runDir(id), 'objects', sha));
    if (sha256Hex(bytes) !== sha) throw new StateError(`run ${id}: stored image ${sha.slice(0, 12)} is corrupt`);
    return bytes;
  }

  append(id: string, record: JournalRecord): void {
    writeStep();
    const dir = this.runDir(id);
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
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try { out.push(JSON.parse(line) as JournalRecord); } catch { break; } // a torn last line: the write never completed
    }
    return out;
  }

  list(): string[] {
    const dir = join(this.stateDir, 'runs');
    return existsSync(dir) ? readdirSync(dir).filter((d) => /^\d{8}-\d{6}-/.test(d)).sort() : [];
  }

  /** The committed undo run that undid `id`, if any: derived, so a crash between the two journals cannot lose it. */
  undoneBy(id: string): string | null {
    for (const other of this.list()) {
      if (other === id) continue;
      const records = this.read(other);
      const begin = records.find((r) => r.type === 'BEGIN');
      if (begin && begin.type === 'BEGIN' && begin.undoes === id && records.some((r) => r.type === 'COMMIT')) return other;
    }
    return null;
  }

  status(id: string): 'committed' | 'undone' | 'rolled-back' | 'interrupted' | 'empty' {
    const records = this.read(id);
    if (!records.some((r) => r.type === 'BEGIN')) return 'empty';
    if (records.some((r) => r.type === 'UNDONE') || (records.some((r) => r.type === 'COMMIT') && this.undoneBy(id))) return 'undone';
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
    if (runs.length) throw new StateError(`run ${runs.join(', ')} was interrupted before it finished; run \`memlint recover ${this.vaultRoot}\` first (it rolls back by default, --forward finishes the run)`);
  }
}

export interface LockInfo { pid: number; host: string; command: string; at: string }

export class Lock {
  private constructor(private readonly file: string) {}

  static path(vaultRoot: string): string { return join(vaultRoot, STATE_DIR, 'lock'); }

  static acquire(vaultRoot: string, command: string): Lock {
    const file = Lock.path(vaultRoot);
    ensureStateDir(vaultRoot);
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
      throw new StateError(`the vault is locked by ${held ? `memlint ${held.command} (pid ${held.pid} on ${held.host}, since ${held.at})` : 'an unreadable lock'}${alive ? '' : '; that process is gone: the lock is stale. If no memlint runs, `memlint recover` reports and clears it'}`);
    }
    return new Lock(file);
  }

  static read(vaultRoot: string): LockInfo | null {
    try { return JSON.parse(readFileSync(Lock.path(vaultRoot), 'utf8')) as LockInfo; } catch { return null; }
  }

  static alive(info: LockInfo): boolean {
    if (info.host !== hostname()) return true; // cannot tell: assume it runs
    try { process.kill(info.pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
  }

  release(): void {
    rmSync(this.file, { force: true });
  }
}
