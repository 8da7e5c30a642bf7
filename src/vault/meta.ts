import type { NoteMeta } from './model.js';

const str = (v: unknown): string | null => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  return null;
};

export const EMPTY_META: NoteMeta = Object.freeze({
  name: null,
  description: null,
  type: null,
  modified: null,
  origin: null,
  shape: 'none',
});

/** The fields memlint reads, from any of the three front-matter shapes found in real vaults. */
export function readMeta(data: Readonly<Record<string, unknown>> | null): NoteMeta {
  if (!data) return EMPTY_META;
  const metadata =
    data.metadata && typeof data.metadata === 'object' && !Array.isArray(data.metadata)
      ? (data.metadata as Record<string, unknown>)
      : null;
  const shape: NoteMeta['shape'] = metadata
    ? 'nested-metadata'
    : 'originSessionId' in data
      ? 'flat-with-origin'
      : 'flat';
  return {
    name: str(data.name) ?? str(metadata?.name),
    description: str(data.description) ?? str(metadata?.description),
    type: str(data.type) ?? str(metadata?.type),
    modified: str(metadata?.modified) ?? str(data.modified),
    origin: str(metadata?.originSessionId) ?? str(data.originSessionId),
    shape,
  };
}
