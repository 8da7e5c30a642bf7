/** Moved to src/similarity/features.ts (one similarity module for consolidate, guard and the Hermes rules). */
export * from '../similarity/features.js';
