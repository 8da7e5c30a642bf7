import type { Reporter } from './types.js';

export const FORMATS = ['pretty', 'json', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export async function loadReporter(format: Format): Promise<Reporter> {
  switch (format) {
    case 'json':
      return (await import('./json.js')).json;
    case 'sarif':
      return (await import('./sarif.js')).sarif;
    case 'github':
      return (await import('./github.js')).github;
    default:
      return (await import('./pretty.js')).pretty;
  }
}
