/** Atomic file replacement: temp file in the same folder, fsync, rename, fsync the folder. */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from './digest.js';

export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * `durable: false` skips both fsyncs: for caches, where a file lost to a power cut is only rebuilt
 * (the rename still means a reader sees the old file or the new one, never half of one).
 */
export function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  mode?: number,
  options: { durable?: boolean } = {},
): void {
  const durable = options.durable ?? true;
  const dir = dirname(file);
  let keepMode = mode;
  if (keepMode === undefined) {
    try {
      keepMode = statSync(file).mode & 0o7777;
    } catch {
      keepMode = 0o644;
    }
  }
  const tmp = join(dir, `.${basename(file)}.${randomHex(6)}.tmp`);
  const fd = openSync(tmp, 'wx', keepMode);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (durable) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  closeSync(fd);
  chmodSync(tmp, keepMode);
  renameSync(tmp, file);
  if (durable) fsyncDir(dir);
}
