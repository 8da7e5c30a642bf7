/** Moved to src/similarity/minhash.ts (one similarity module for consolidate, guard and the Hermes rules). */
export * from '../similarity/minhash.js';
