/** memlint as a library: everything the CLI does is reachable from here without it. */
export {
  check,
  consolidate,
  planApply,
  guard,
  type CheckReport,
  type ApplyPlan,
  type PlannedChange,
  type GuardReport,
  type LibraryOptions,
} from './api.js';
export type { Proposal } from './proposal/schema.js';
export type { GuardMatch } from './guard/guard.js';
export {
  checkVault,
  checkLoadedVault,
  toJsonReport,
  type CheckResult,
  type CheckOptions,
  type Summary,
} from './check.js';
export { loadVault, type LoadOptions } from './vault/load.js';
export type * from './vault/model.js';
export { loadConfig, parseConfig } from './api.js';
export { DEFAULT_CONFIG } from './config/defaults.js';
export { configSchema, defaultConfig, type Config, type Severity } from './config/schema.js';
export { runRules } from './rules/engine.js';
export { RULES, RULE_IDS } from './rules/index.js';
export type { Finding, Rule } from './rules/types.js';
export { buildCatalog } from './catalog/build.js';
export { scanMarkdown } from './vault/scan.js';
export { main } from './main.js';
export { VERSION } from './version.js';
