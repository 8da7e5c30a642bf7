/**
 * The worker of rules/parallel.ts: makes each posted file from the bytes the main thread read and its
 * parse (a file reused as `check --cache` reuses one; a file with a decoding problem is parsed again), and runs the portable rules on them through the one engine (`runRules`),
 * recording each file's findings per rule. Every answer, or an error, is posted back and counted in
 * the shared signal, which the main thread waits on.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Config } from '../config/schema.js';
import { makeVaultFile, parseMarkdown } from '../vault/file.js';
import { indexInfoOf } from '../vault/load.js';
import { fromPlainRecord, ReusedFile } from '../vault/reused.js';
import type { Vault, VaultFile, VaultKind } from '../vault/model.js';
import { runRules } from './engine.js';
import type { Batch, BatchResult } from './parallel.js';
import { PORTABLE_RULES } from './portable.js';
import type { Finding } from './types.js';

interface Data {
  readonly config: Config;
  readonly kind: VaultKind;
  readonly root: string;
  readonly port: MessagePort;
  readonly signal: Int32Array;
}

const data = workerData as Data;

/**
 * A vault of these files only: what the portable rules read of a vault is its files, kind and config,
 * and the index with its budget (index/lost-correction), made from the index file as `assembleVault` makes it.
 */
function filesOnly(files: readonly VaultFile[]): Vault {
  const byPath = new Map(files.map((f) => [f.path, f] as const));
  const index = files.find((f) => f.role === 'index') ?? null;
  return {
    root: data.root,
    kind: data.kind,
    config: data.config,
    files,
    notes: files.filter((f) => f.role === 'note'),
    index,
    indexInfo: indexInfoOf(index, data.kind, data.config),
    catalog: null,
    secondaryIndexes: [],
    stores: [],
    skipped: [],
    byPath,
    otherFiles: new Set(),
  };
}

function answer(batch: Batch): BatchResult {
  const files = batch.files.map((f) => {
    const bytes =
      f.arena < 0
        ? batch.bytes.subarray(f.start, f.end)
        : new Uint8Array(batch.arenas[f.arena]!, f.start, f.end - f.start);
    const stat = { size: f.size, mtimeMs: f.mtimeMs, mode: f.mode };
    // A file that decoded without a problem comes with the main thread's parse; any other is parsed again.
    const p = f.record
      ? new ReusedFile(f.path, f.absPath, f.role, bytes, stat, fromPlainRecord(f.record))
      : parseMarkdown(f.path, f.absPath, f.role, bytes, stat, f.maxBytes);
    return makeVaultFile(p, []);
  });
  const at = new Map(files.map((f, i) => [f, i] as const));
  const found: [number, string, readonly Finding[]][] = [];
  const done = new Map<string, number>();
  runRules(filesOnly(files), PORTABLE_RULES, {
    get: () => undefined,
    set: (file, ruleId, findings) => {
      done.set(ruleId, (done.get(ruleId) ?? 0) + 1);
      if (findings.length > 0) found.push([at.get(file)!, ruleId, findings]);
    },
  });
  // A rule ran on the batch when the engine recorded it for every file (a crash stops it short).
  return { ran: [...done].filter(([, n]) => n === files.length).map(([id]) => id), findings: found };
}

function post(r: BatchResult): void {
  data.port.postMessage(r);
  Atomics.add(data.signal, 0, 1);
  Atomics.notify(data.signal, 0);
}

// Running: the main thread stops waiting for a worker whose code never got here.
Atomics.store(data.signal, 1, 1);
Atomics.notify(data.signal, 1);

parentPort?.on('message', (batch: Batch) => {
  let r: BatchResult;
  try {
    r = answer(batch);
  } catch (e) {
    r = { error: (e as Error).message };
  }
  post(r);
});
