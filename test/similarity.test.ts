/** The similarity module's conflict engine on shapes the issue names (not the eval set: see eval.test.ts). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { noteClauses, noteConflicts, sentenceConflict, viewSentence } from '../src/similarity/conflict.js';
import { areAntonyms, typoLevel } from '../src/similarity/lexicon.js';
import { vaultFromText } from '../src/vault/from-text.js';

const notes = (a: string, b: string) => {
  const v = vaultFromText('/tmp', DEFAULT_CONFIG, [
    { path: 'a.md', text: `---\nname: a\n---\n\n${a}\n` },
    { path: 'b.md', text: `---\nname: b\n---\n\n${b}\n` },
  ]);
  return noteConflicts(noteClauses(v.notes[0]!), noteClauses(v.notes[1]!), 1);
};

describe('conflict engine', () => {
  it('a command recommended in one note and called dangerous in another conflicts', () => {
    const found = notes(
      'After changing .env, run `pm2 restart api --update-env` so the new variables load.',
      'Do not rely on `pm2 restart --update-env`: it is unreliable and dangerous here, it kept stale variables twice. Delete and start the process instead.',
    );
    expect(found[0]?.conflict.kind).toBe('polarity');
  });
  it.each([
    ['The benchmark took 3.86 s on the CI runner.', 'The benchmark took 3.86.0 s on the CI runner.'],
    ['A single `search` call takes about 119 ms p50.', 'Production traffic: roughly 8,686 `search` calls per day.'],
    ['The docs live in the incluir folder of the wiki.', 'The docs live in the incluis folder of the wiki.'],
  ])('no conflict: %s / %s', (a, b) => {
    expect(notes(a, b)).toEqual([]);
  });
  it('a sentence that only mentions a tool is not "using" it against a note that dropped it', () => {
    expect(
      sentenceConflict(
        viewSentence('We dropped Docker for the dev boxes; everything runs natively.'),
        viewSentence('Docker Desktop licensing was discussed in the dev boxes meeting.'),
      ),
    ).toBeNull();
  });
  it('antonyms come from WordNet and negative prefixes; typos are not conflicts', () => {
    expect(areAntonyms('reliable', 'unreliable')).toBe(true);
    expect(areAntonyms('enabled', 'disabled')).toBe(true);
    expect(areAntonyms('manual', 'automatic')).toBe(true);
    expect(areAntonyms('manual', 'install')).toBe(false);
    expect(typoLevel('inclui', 'incluis')).toBe(true);
    expect(typoLevel('3.86', '3.86.0')).toBe(true);
    expect(typoLevel('5432', '6543')).toBe(false);
  });
});
