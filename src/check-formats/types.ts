import type { CheckResult } from '../check.js';

export interface ReporterContext {
  /** Colours allowed (a TTY, NO_COLOR unset). */
  readonly color: boolean;
  /** Where paths in annotations are made relative to (the repository root, usually cwd). */
  readonly cwd: string;
}

export type Reporter = (result: CheckResult, ctx: ReporterContext) => string;
