/** Carrying out a plan, undoing a run, recovering after a crash: the only code that writes notes. */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../util/atomic.js';
import { sha256Hex } from '../util/digest.js';
import { safeStateDir } from '../util/state-dir.js';
import { ensureStateDir } from '../util/cache-dir.js';
import { inGitWorkTree, snapshot } from './git.js';
import { Lock, RunStore, StateError, writeStep, type ChangeRecord, type JournalRecord } from './journal.js';
import { unsafePath } from './paths.js';
import type { FileChange } from './compose.js';
import type { ItemOutcome } from './plan.js';

export interface Executed {
  readonly runId: string;
  readonly touched: readonly string[];
  readonly git: { pre: string | null; post: string | null } | null;
}

const abs = (root: string, path: string): string => join(root, ...path.split('/'));

/** Folders the run will create, shallowest first, so undo can remove them again. */
function missingDirs(root: string, changes: readonly FileChange[]): string[] {
  const out = new Set<string>();
  for (const c of changes) {
    if (!c.after) continue;
    let dir = dirname(c.path);
    const chain: string[] = [];
    while (dir !== '.' && dir !== '' && !existsSync(abs(root, dir))) {
      chain.push(dir);
      dir = dirname(dir);
    }
    for (const d of chain) out.add(d);
  }
  return [...out].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
}

function writeImage(root: string, path: string, bytes: Uint8Array | null, mode: number, mtimeMs?: number): void {
  const file = abs(root, path);
  if (bytes === null) {
    if (existsSync(file)) {
      unlinkSync(file);
      fsyncDir(dirname(file));
    }
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, bytes, mode);
  // A restored or retired file keeps the time it was last written.
  if (mtimeMs) utimesSync(file, Date.now() / 1000, mtimeMs / 1000);
}

/** Writes first (holding copies before the originals go), deletions last. */
function ordered<T extends { after: unknown; path: string }>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => Number(a.after === null) - Number(b.after === null) || (a.path < b.path ? -1 : 1));
}

export function executeChanges(
  root: string,
  runId: string,
  changes: readonly FileChange[],
  meta: {
    kind: 'apply' | 'undo';
    items: readonly ItemOutcome[] | { id: string; status: string }[];
    proposal?: string;
    undoes?: string;
    preserved?: { path: string; sha: string }[];
  },
): Executed {
  const store = new RunStore(root);
  // Every path is checked again here, whatever produced it (a proposal, the config's catalog file,
  // a journal): nothing is written outside the vault or into a hidden folder other than the holding one.
  for (const c of changes) {
    const why = unsafePath(root, c.path, { state: true });
    if (why) throw new StateError(`refusing to write: ${why}`);
  }
  if (changes.some((c) => c.path.startsWith('.memlint/'))) safeStateDir(root, 'retired');
  ensureStateDir(root);
  mkdirSync(safeStateDir(root, 'runs', runId), { recursive: true });
  const records: ChangeRecord[] = changes.map((c) => ({
    path: c.path,
    item: c.item,
    before: c.before
      ? {
          sha: store.putObject(runId, c.before.bytes),
          mode: c.before.mode,
          ...(c.before.mtimeMs ? { mtimeMs: c.before.mtimeMs } : {}),
        }
      : null,
    after: c.after
      ? {
          sha: store.putObject(runId, c.after.bytes),
          mode: c.after.mode,
          ...(c.after.mtimeMs ? { mtimeMs: c.after.mtimeMs } : {}),
        }
      : null,
  }));
  const git = inGitWorkTree(root);
  const pre = git
    ? snapshot(
        root,
        store.runDir(runId),
        runId,
        'pre',
        changes.map((c) => c.path),
      )
    : null;
  store.append(runId, {
    type: 'BEGIN',
    runId,
    kind: meta.kind,
    at: new Date().toISOString(),
    ...(meta.proposal ? { proposal: meta.proposal } : {}),
    ...(meta.undoes ? { undoes: meta.undoes } : {}),
    items: meta.items.map((i) => ({ id: i.id, status: i.status })),
    changes: records,
    createdDirs: missingDirs(root, changes),
    ...(meta.preserved ? { preserved: meta.preserved } : {}),
    ...(pre ? { git: { pre } } : {}),
  });
  const order = ordered(changes.map((c, index) => ({ ...c, index })));
  const applied: typeof order = [];
  try {
    for (const c of order) {
      // Checked immediately before the rename: an edit made while the run planned and wrote is
      // never overwritten; the run stops and rolls back instead.
      if (currentSha(root, c.path) !== (records[c.index]!.before?.sha ?? null)) {
        throw new StateError(
          `${c.path} changed while the run was writing; nothing of the run is kept (rolled back), run it again`,
        );
      }
      writeStep();
      writeImage(root, c.path, c.after ? c.after.bytes : null, c.after?.mode ?? 0o644, c.after?.mtimeMs);
      applied.push(c);
      store.append(runId, { type: 'APPLIED', index: c.index });
    }
  } catch (e) {
    rollBack(root, store, runId, applied, missingDirsOf(store, runId));
    if (e instanceof StateError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new StateError(
      `could not write ${err.path ?? 'a file'} (${err.code ?? err.message}); the run was rolled back, nothing of it is kept`,
    );
  }
  const post = git
    ? snapshot(
        root,
        store.runDir(runId),
        runId,
        'post',
        changes.map((c) => c.path),
      )
    : null;
  store.append(runId, { type: 'COMMIT', at: new Date().toISOString(), ...(post ? { git: { post } } : {}) });
  return { runId, touched: changes.map((c) => c.path), git: git ? { pre, post } : null };
}

export function newRunId(now = new Date()): string {
  const iso = now.toISOString();
  const stamp = iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  // Milliseconds keep two runs in one second in order; the hash keeps two processes apart.
  return `${stamp}-${iso.slice(20, 23)}${sha256Hex(`${process.pid}:${now.getTime()}:${Math.random()}`).slice(0, 4)}`;
}

function currentSha(root: string, path: string): string | null {
  const file = abs(root, path);
  return existsSync(file) && statSync(file).isFile() ? sha256Hex(readFileSync(file)) : null;
}

function missingDirsOf(store: RunStore, runId: string): string[] {
  try {
    return (
      store.read(runId).find((r): r is Extract<JournalRecord, { type: 'BEGIN' }> => r.type === 'BEGIN')?.createdDirs ??
      []
    );
  } catch {
    return [];
  }
}

/** Puts back the pre-images of what a failed run already wrote, newest first, and closes its journal. */
function rollBack(
  root: string,
  store: RunStore,
  runId: string,
  applied: readonly (FileChange & { index: number })[],
  createdDirs: readonly string[],
): void {
  try {
    for (const c of [...applied].reverse())
      writeImage(root, c.path, c.before ? c.before.bytes : null, c.before?.mode ?? 0o644, c.before?.mtimeMs);
    removeEmptyDirs(root, createdDirs);
    store.append(runId, { type: 'ROLLEDBACK', at: new Date().toISOString() });
  } catch {
    // The journal still says "interrupted": `memlint recover` finishes the roll-back.
  }
}

/** Temporary files writeFileAtomic leaves beside `path` when a process dies between write and rename. */
function removeTempFiles(root: string, path: string): void {
  const dir = dirname(abs(root, path));
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(prefix) || !/^[0-9a-f]{12}\.tmp$/.test(n.slice(prefix.length))) continue;
    try {
      if (lstatSync(join(dir, n)).isFile()) unlinkSync(join(dir, n));
    } catch {
      /* gone */
    }
  }
}

function beginOf(records: JournalRecord[], id: string): Extract<JournalRecord, { type: 'BEGIN' }> {
  const begin = records.find((r): r is Extract<JournalRecord, { type: 'BEGIN' }> => r.type === 'BEGIN');
  if (!begin) throw new StateError(`run ${id} has no journal`);
  return begin;
}

function removeEmptyDirs(root: string, dirs: readonly string[]): void {
  for (const d of [...dirs].reverse()) {
    try {
      if (readdirSync(abs(root, d)).length === 0) rmdirSync(abs(root, d));
    } catch {
      /* already gone */
    }
  }
}

/** Undo restores the exact pre-run bytes and modes; it is itself a run that can be undone. */
export function undoRun(
  root: string,
  runId: string | undefined,
  options: { force?: boolean } = {},
): Executed & { undid: string } {
  const store = new RunStore(root);
  if (!existsSync(safeStateDir(root)))
    throw new StateError(runId ? `no run ${runId} in ${root}` : 'there is no run to undo');
  store.refuseIfInterrupted();
  const lock = Lock.acquire(root, 'undo');
  try {
    const candidates = store.list().filter((id) => store.status(id) === 'committed');
    const target = runId ?? candidates[candidates.length - 1];
    if (!target) throw new StateError('there is no run to undo');
    const status = store.status(target);
    if (status === 'empty') throw new StateError(`no run ${target} in ${root}`);
    if (status !== 'committed') throw new StateError(`run ${target} is ${status}; only a committed run can be undone`);
    const begin = beginOf(store.read(target), target);
    const changed = begin.changes.filter((c) => currentSha(root, c.path) !== (c.after?.sha ?? null));
    if (changed.length && !options.force) {
      throw new StateError(
        `refusing to undo ${target}: changed since the run: ${changed.map((c) => c.path).join(', ')} (--force keeps a copy of their current content in the run folder and undoes anyway)`,
      );
    }
    const id = newRunId();
    const preserved = changed.map((c) => {
      const file = abs(root, c.path);
      return { path: c.path, sha: existsSync(file) ? store.putObject(id, readFileSync(file)) : 'absent' };
    });
    const changes: FileChange[] = begin.changes.map((c) => {
      const cur = abs(root, c.path);
      const nowBytes = existsSync(cur) ? readFileSync(cur) : null;
      return {
        path: c.path,
        item: c.item,
        before: nowBytes
          ? { bytes: nowBytes, mode: statSync(cur).mode & 0o7777, mtimeMs: statSync(cur).mtimeMs }
          : null,
        after: c.before
          ? {
              bytes: store.getObject(target, c.before.sha),
              mode: c.before.mode,
              ...(c.before.mtimeMs ? { mtimeMs: c.before.mtimeMs } : {}),
            }
          : null,
      };
    });
    const done = executeChanges(root, id, changes, {
      kind: 'undo',
      items: begin.items,
      undoes: target,
      ...(preserved.length ? { preserved } : {}),
    });
    removeEmptyDirs(root, begin.createdDirs);
    store.append(target, { type: 'UNDONE', by: id, at: new Date().toISOString() });
    return { ...done, undid: target };
  } finally {
    lock.release();
  }
}

export interface RecoverReport {
  readonly runs: readonly {
    id: string;
    action: 'rolled back' | 'finished';
    kept: readonly { path: string; sha: string }[];
  }[];
  readonly staleLock: string | null;
}

/** After a crash: roll every interrupted run back to its pre-images (or forward to its post-images). */
export function recoverVault(root: string, options: { forward?: boolean } = {}): RecoverReport {
  const store = new RunStore(root);
  // A vault with no state folder has nothing to recover: nothing is created (not even .memlint).
  if (!existsSync(safeStateDir(root))) return { runs: [], staleLock: null };
  let staleLock: string | null = null;
  const held = Lock.read(root);
  if (held || existsSync(Lock.path(root))) {
    if (held && Lock.alive(held))
      throw new StateError(
        `memlint ${held.command} (pid ${held.pid}) is running on this vault; recover refuses while it runs`,
      );
    staleLock = held ? `pid ${held.pid} (${held.command}, since ${held.at})` : 'unreadable lock file';
    unlinkSync(Lock.path(root));
  }
  const lock = Lock.acquire(root, 'recover');
  try {
    const runs: { id: string; action: 'rolled back' | 'finished'; kept: { path: string; sha: string }[] }[] = [];
    for (const id of store.interrupted()) {
      const begin = beginOf(store.read(id), id);
      // Every image is read (and its hash checked) before anything is written: a run whose stored
      // files do not hash to what its journal says is refused whole.
      const images = begin.changes.map((c) => {
        const image = options.forward ? c.after : c.before;
        return image ? store.getObject(id, image.sha) : null;
      });
      const kept: { path: string; sha: string }[] = [];
      for (const [k, c] of [...begin.changes.entries()].reverse()) {
        const image = options.forward ? c.after : c.before;
        // A file that is neither the run's pre- nor its post-image was edited after the crash: a copy
        // of it is kept in the run folder (as `undo --force` does) before the image replaces it.
        const now = currentSha(root, c.path);
        if (now !== (c.before?.sha ?? null) && now !== (c.after?.sha ?? null)) {
          kept.push({
            path: c.path,
            sha: now === null ? 'absent' : store.putObject(id, readFileSync(abs(root, c.path))),
          });
        }
        writeStep();
        writeImage(root, c.path, images[k]!, image?.mode ?? 0o644, image?.mtimeMs);
        removeTempFiles(root, c.path);
      }
      if (!options.forward) removeEmptyDirs(root, begin.createdDirs);
      store.append(
        id,
        options.forward
          ? { type: 'COMMIT', at: new Date().toISOString(), ...(kept.length ? { kept } : {}) }
          : { type: 'ROLLEDBACK', at: new Date().toISOString(), ...(kept.length ? { kept } : {}) },
      );
      runs.push({ id, action: options.forward ? 'finished' : 'rolled back', kept });
    }
    return { runs, staleLock };
  } finally {
    lock.release();
  }
}

export interface RunSummary {
  id: string;
  kind: string;
  at: string;
  items: number;
  files: number;
  status: string;
  undoes?: string;
  undoneBy?: string;
  proposal?: string;
}

export function listRuns(root: string): RunSummary[] {
  const store = new RunStore(root);
  return store.list().map((id) => {
    const records = store.read(id);
    const begin = records.find((r): r is Extract<JournalRecord, { type: 'BEGIN' }> => r.type === 'BEGIN');
    const undoneBy =
      records.find((r): r is Extract<JournalRecord, { type: 'UNDONE' }> => r.type === 'UNDONE')?.by ??
      store.undoneBy(id);
    return {
      id,
      kind: begin?.kind ?? '?',
      at: begin?.at ?? '?',
      items: begin?.items.filter((i) => i.status === 'run').length ?? 0,
      files: begin?.changes.length ?? 0,
      status: store.status(id),
      ...(begin?.undoes ? { undoes: begin.undoes } : {}),
      ...(undoneBy ? { undoneBy } : {}),
      ...(begin?.proposal ? { proposal: begin.proposal } : {}),
    };
  });
}
