import { toJsonReport } from '../check.js';
import type { Reporter } from './types.js';

export const json: Reporter = (result) => `${JSON.stringify(toJsonReport(result), null, 2)}\n`;
