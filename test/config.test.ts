import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { configSchema } from '../src/config/schema.js';

describe('config', () => {
  it('the literal defaults equal what the zod schema fills in', () => {
    expect(DEFAULT_CONFIG).toEqual(configSchema.parse({}));
  });
  it('the defaults cannot be changed by a caller', () => {
    expect(Object.isFrozen(DEFAULT_CONFIG.index)).toBe(true);
    expect(() => (DEFAULT_CONFIG.types as string[]).push('x')).toThrow();
  });
});
