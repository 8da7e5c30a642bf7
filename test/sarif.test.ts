import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from './helpers/run.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const draft4 = require('ajv/lib/refs/json-schema-draft-04.json');
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

describe('sarif', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    const ajv = new Ajv({ schemaId: 'auto', allErrors: true, unknownFormats: 'ignore' });
    ajv.addMetaSchema(draft4);
    const validate = ajv.compile(schema);
    const r = runBin(['check', join('fixtures', 'demo-vault'), '--format', 'sarif']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    const results = doc.runs[0].results;
    expect(results.length).toBeGreaterThan(10);
    const rules = doc.runs[0].tool.driver.rules;
    for (const res of results) expect(rules[res.ruleIndex].id).toBe(res.ruleId);
  });

  it('a schema violation would be caught', () => {
    const ajv = new Ajv({ schemaId: 'auto', unknownFormats: 'ignore' });
    ajv.addMetaSchema(draft4);
    const validate = ajv.compile(schema);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
  });
});
