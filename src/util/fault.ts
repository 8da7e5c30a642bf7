/**
 * A fault-injection seam for file-system errors: tests make a read fail with a chosen errno (EACCES,
 * EPERM, EISDIR, EFBIG, …) where chmod cannot (the CI runs as root, and root reads through any mode).
 * Off unless a test sets it: one null test per read.
 */
export type FaultOp = 'readdir' | 'open';
type Fault = (op: FaultOp, path: string) => string | null;

let fault: Fault | null = null;

/** Tests only: `f` answers an errno code to raise for (op, path), or null to let the call run. */
export function injectFault(f: Fault | null): void {
  fault = f;
}

/** Throws the injected error for (op, path), shaped as Node's own (code, syscall, path). */
export function checkFault(op: FaultOp, path: string): void {
  if (fault === null) return;
  const code = fault(op, path);
  if (code) throw Object.assign(new Error(`${code}: ${op} '${path}'`), { code, syscall: op, path, errno: -1 });
}
