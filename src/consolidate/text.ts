/** Moved to src/similarity/text.ts (one similarity module for consolidate, guard and the Hermes rules). */
export * from '../similarity/text.js';
