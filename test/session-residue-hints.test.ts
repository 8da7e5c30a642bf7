// memory/session-residue skips its two hint regexes on every unit of a file whose normalized view lacks their
// keywords (found in the security rules' shared keyword pass): the hits must be those of the hints run on every
// unit, whatever the case, the non-ASCII characters and the hidden characters around them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { distinctHits, isRuleOrIncident, residueIn, residueUnits } from '../src/rules/memory/session-residue.js';
import { viewKept } from '../src/rules/security/normalize.js';
import { unitsOf } from '../src/rules/memory/units.js';
import { vaultFromText } from '../src/vault/from-text.js';
import { propertyRuns } from './helpers/ci.js';

const FRAGMENTS = [
  'In this Session',
  'THIS CONVERSATION',
  'currently Debugging',
  'Server is running on :8080',
  'PID 4242',
  'working tree is dirty',
  'uncommitted this session',
  '/tmp/x.log',
  ' /TMP/build ',
  '$TMPDIR/a',
  '%TEMP%\\b',
  '\\AppData\\Local\\Temp\\c',
  '/var/folders/zz/q',
  '/p/0b1c2d3e-1a2b-4c5d-8e9f-0a1b2c3d4e5f.jsonl',
  'ses\u200bsion',
  'ſession',
  'ſtill debugging',
  '\u212apid 99',
  'Ｓｅｓｓｉｏｎ',
  'é',
  '語',
  ' ',
  '\n',
  '\n\n',
  'plain words',
  '§',
];

describe('memory/session-residue hints gated by the shared keyword pass', () => {
  it('finds the same hits as the hints run on every unit', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }), fc.boolean(), (parts, store) => {
        const body = parts.join(' ');
        const text = store ? body.replace(/§/g, '\n§\n') : `---\nname: n\ndescription: d\n---\n${body}\n`;
        const vault = vaultFromText(
          '/v',
          DEFAULT_CONFIG,
          [{ path: store ? 'MEMORY.md' : 'n.md', text, ...(store ? { role: 'hermes-store' as const } : {}) }],
          store ? 'hermes' : 'claude',
        );
        const units = vault.files.flatMap(unitsOf);
        const gated = residueUnits(units, { minHits: 1 });
        // What residueUnits gives with the hints run on every unit.
        const every = units
          .map((unit) => ({ unit, hits: residueIn(unit) }))
          .filter(({ unit, hits }) => distinctHits(hits).length >= 1 && !isRuleOrIncident(unit));
        expect(gated, JSON.stringify(text)).toEqual(every);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
});

describe('the normalized views residueUnits reads', () => {
  const vault = (): ReturnType<typeof vaultFromText> =>
    vaultFromText(
      '/v',
      DEFAULT_CONFIG,
      [
        { path: 'a.md', text: '---\nname: a\ndescription: d\n---\nIn this session PID 4242 ran /tmp/x.log\n' },
        { path: 'b.md', text: '---\nname: b\ndescription: d\n---\nplain words, é 語\n' },
      ],
      'claude',
    );

  it('stay on the files for check (its security rules read the same views)', () => {
    const v = vault();
    residueUnits(v.files.flatMap(unitsOf), { minHits: 1 });
    expect(v.files.map(viewKept)).toEqual([true, true]);
  });

  it('are let go when asked (consolidate reads each once), with the same hits', () => {
    const v = vault();
    const w = vault();
    const kept = residueUnits(v.files.flatMap(unitsOf), { minHits: 1 });
    const dropped = residueUnits(w.files.flatMap(unitsOf), { minHits: 1 }, false);
    expect(w.files.map(viewKept)).toEqual([false, false]);
    expect(dropped.map((d) => [d.unit.label, d.hits])).toEqual(kept.map((d) => [d.unit.label, d.hits]));
    expect(dropped).toHaveLength(1);
  });
});
