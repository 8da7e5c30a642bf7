/** Moved to src/similarity/conflict.ts (one similarity module for consolidate, guard and the Hermes rules). */
export * from '../similarity/conflict.js';
