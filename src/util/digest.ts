/**
 * Hashes through process.getBuiltinModule: an ESM `import … from 'node:crypto'` builds the module's
 * namespace, which reads its lazy getters (webcrypto) and costs start-up time (BENCHMARKS.md) on every
 * run of guard and check, including the many that never hash anything.
 */
const crypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

export const sha1Base64 = (data: string | Uint8Array): string => crypto().hash('sha1', data, 'base64');
export const sha256Hex = (data: string | Uint8Array): string =>
  crypto().createHash('sha256').update(data).digest('hex');
export const randomHex = (bytes: number): string => crypto().randomBytes(bytes).toString('hex');
