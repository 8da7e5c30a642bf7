/**
 * The registry's rule ids for the config layer, which validates `rules.<id>` and `reviewed[].rule` but sits
 * below the rules: callers pass this to `loadConfig`. The registry is loaded only when a config file is read.
 */
export const knownRuleIds = async (): Promise<readonly string[]> => (await import('./index.js')).RULE_IDS;
