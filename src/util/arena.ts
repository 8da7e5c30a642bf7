/**
 * Where many files' bytes are read into: a few shared buffers of `chunk` bytes, each file a view of one, instead of
 * a buffer of its own. A fresh buffer costs far more than its bytes (each is an ArrayBuffer V8 tracks, and its memory
 * is new pages the kernel must fault in: ~1.7 ms for 300 KB on the bench machine). A chunk is a SharedArrayBuffer, so
 * `check`'s worker reads the same bytes without a copy (src/rules/parallel.ts). Views never overlap and a chunk's
 * bytes are never written again once handed out. A file over a quarter of a chunk gets a buffer of its own.
 */
export type ByteAlloc = (size: number) => Buffer;

export const ARENA_CHUNK = 1 << 20;

export function byteArena(chunk = ARENA_CHUNK): ByteAlloc {
  let buffer: SharedArrayBuffer | null = null;
  let used = chunk;
  return (size) => {
    if (size > chunk >> 2) return Buffer.allocUnsafe(size);
    if (buffer === null || used + size > chunk) {
      buffer = new SharedArrayBuffer(chunk);
      used = 0;
    }
    const view = Buffer.from(buffer, used, size);
    used += size;
    return view;
  };
}
