// Did-you-mean through the stem index gives the brute force's answers: on the corpus vaults, on the
// hard bench shape, and on random inputs (fast-check), including ties, CJK and very short targets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildLookup,
  closest,
  closestBruteForce,
  closestExact,
  fold,
  NEAR_BUDGET,
  stemsOfPlaces,
} from '../src/vault/resolve.js';
import { editDistance } from '../src/util/edit-distance.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { basename } from 'node:path';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';
import { propertyRuns } from './helpers/ci.js';
// @ts-expect-error: a plain .mjs script without types
import { planHardVault } from '../scripts/bench/generate.mjs';

const lookupOf = (stems: readonly string[]) =>
  buildLookup(
    stems.map((s) => ({ path: `${s}.md`, stem: s, name: null })),
    stems.map((s) => `${s}.md`),
    [],
  );

/** A generated hard vault's stems, its lookup, and every distinct broken wikilink target in it. */
function hardTargets(n: number): { stems: string[]; lookup: ReturnType<typeof lookupOf>; targets: Set<string> } {
  const { files, index } = planHardVault(n) as { files: { rel: string; text: string }[]; index: string };
  const stems = files.map((f) => f.rel.slice(f.rel.lastIndexOf('/') + 1, -3));
  const known = new Set(stems);
  const targets = new Set<string>();
  for (const text of [index, ...files.map((f) => f.text)])
    for (const m of text.matchAll(/\[\[([^\]]+)\]\]/g)) if (!known.has(m[1]!)) targets.add(m[1]!);
  return { stems, lookup: lookupOf(stems), targets };
}

describe('closest() through the index', () => {
  it('agrees with the brute force on random stems and targets', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'd', '-', '_', ' ', 'A', 'é', '語', 'ｂ');
    const word = fc.string({ unit: alphabet, minLength: 1, maxLength: 24 });
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 60 }),
        fc.array(word, { minLength: 1, maxLength: 20 }),
        (stems, targets) => {
          const lookup = lookupOf(stems);
          for (const t of targets) expect(closest(t, lookup)).toBe(closestBruteForce(t, stems));
          // and targets that are near-misses of a stem (the case did-you-mean exists for)
          for (const s of stems.slice(0, 10)) {
            const t = s.length > 2 ? s.slice(0, 1) + s.slice(2) + 'x' : `${s}y`;
            expect(closest(t, lookup)).toBe(closestBruteForce(t, stems));
          }
        },
      ),
      { numRuns: propertyRuns(400) },
    );
  });

  it('agrees with the brute force on stems one to three edits from the targets, edits spread out (the trigram filter at its bound)', () => {
    // Targets of 9+ units answered after the first few go through the trigram postings (step 1): two
    // substitutions far apart leave a single trigram of a 9-unit target in the stem, the filter's edge.
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''));
    const stem = fc.array(letter, { minLength: 9, maxLength: 18 }).map((a) => a.join(''));
    const edit = fc.record({ op: fc.integer({ min: 0, max: 2 }), at: fc.nat(), c: letter });
    startCounting();
    fc.assert(
      fc.property(
        fc.uniqueArray(stem, { minLength: 40, maxLength: 80 }),
        fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 40, maxLength: 40 }),
        (stems, edits) => {
          const lookup = lookupOf(stems);
          edits.forEach((es, n) => {
            let t = stems[n % stems.length]!;
            for (const e of es) {
              const i = e.at % (t.length + 1);
              t =
                e.op === 0
                  ? t.slice(0, i) + e.c + t.slice(i + 1)
                  : e.op === 1
                    ? t.slice(0, i) + t.slice(i + 1)
                    : t.slice(0, i) + e.c + t.slice(i);
            }
            expect(closest(t, lookup), t).toBe(closestBruteForce(t, stems));
          });
          // The edge itself: two substitutions at positions 2 and 6 of a 9-unit stem.
          for (const s of stems.slice(0, 20)) {
            const t = `${s.slice(0, 2)}#${s.slice(3, 6)}#${s.slice(7)}`;
            expect(closest(t, lookup), t).toBe(closestBruteForce(t, stems));
          }
        },
      ),
      { numRuns: propertyRuns(200) },
    );
    // The trigram way was taken (not only the trie).
    expect(stopCounting()['resolve.nearPlaces']).toBeGreaterThan(0);
  });

  it.skipIf(!hasCorpus)(
    'agrees with the brute force on every corpus vault (every stem misspelt, and unrelated names)',
    () => {
      let asked = 0;
      for (const dir of corpusVaults('claude')) {
        const stems = markdownFilesUnder(dir).map((f) => basename(f, '.md'));
        if (stems.length === 0) continue;
        const lookup = lookupOf([...new Set(stems)]);
        const targets = stems
          .slice(0, 120)
          .flatMap((s) => [
            s.slice(1),
            `${s}s`,
            s.replace(/[aeiou]/, ''),
            s.split('').reverse().join(''),
            s.slice(0, 5),
          ]);
        for (const t of targets) {
          expect(closest(t, lookup), t).toBe(closestBruteForce(t, lookup.byStem.keys()));
          asked++;
        }
      }
      expect(asked).toBeGreaterThan(1000);
    },
  );

  it('agrees with the brute force on the hard bench shape (every broken wikilink of a 300-note vault)', () => {
    const { stems, lookup, targets } = hardTargets(300);
    expect(targets.size).toBeGreaterThan(150);
    let suggested = 0;
    for (const t of targets) {
      const want = closestBruteForce(t, stems);
      expect(closest(t, lookup), t).toBe(want);
      if (want) suggested++;
    }
    expect(suggested).toBeGreaterThan(targets.size / 4);
  });

  it('on a 1,000-note hard vault (past the search budget): exact within two edits, near the exact answer otherwise', () => {
    const { lookup, targets } = hardTargets(1000);
    let same = 0;
    for (const t of targets) {
      const want = closestExact(t, lookup);
      const got = closest(t, lookup);
      if (got === want) {
        same++;
        continue;
      }
      const max = Math.max(2, Math.floor(fold(t).length / 4));
      // Never a stem within two edits missed, never one farther than the maximum suggested.
      if (want !== null) expect(editDistance(fold(t), fold(want), max), t).toBeGreaterThan(2);
      if (got !== null) expect(editDistance(fold(t), fold(got), max), t).toBeLessThanOrEqual(max);
    }
    // Measured 2,559 / 2,571 (99.5%); the 12 others are targets whose exact answer is 3–5 edits away.
    expect(same / targets.size).toBeGreaterThanOrEqual(0.99);
    expect(closestExact('abc', lookupOf(['abd']))).toBe(closestBruteForce('abc', ['abd']));
  });
});

describe('step 1 through the trie is bounded (NEAR_BUDGET)', () => {
  it('computes at most NEAR_BUDGET rows for a short target among many stems that share its prefix', () => {
    // 4,096 stems `aaaaa` + three of 16 letters: a target of 8 units (too short for the trigram places) that
    // differs from each in its last three units has ~4,400 trie nodes within reach of two edits.
    const letters = 'abcdefghijklmnop';
    const stems: string[] = [];
    for (const x of letters) for (const y of letters) for (const z of letters) stems.push(`aaaaa${x}${y}${z}`);
    const lookup = lookupOf(stems);
    startCounting();
    const got = closest('aaaaaqrs', lookup);
    const rows = stopCounting()['resolve.trieRows'] ?? 0;
    expect(got).toBe(closestBruteForce('aaaaaqrs', stems));
    expect(rows).toBeGreaterThan(NEAR_BUDGET / 2);
    expect(rows).toBeLessThanOrEqual(NEAR_BUDGET);
  });
});

describe('step 1 reads only the places of stems near the target in length', () => {
  it('reads as many places, and no more trie rows, however many longer stems share the trigrams of the target', () => {
    let seed = 11;
    const letter = (): string => 'abcdefghijklmnopqrstuvwxyz'[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 26]!;
    const word = (n: number): string => Array.from({ length: n }, letter).join('');
    const near = Array.from({ length: 50 }, () => `alpha-beta-gamma-${word(5)}`);
    // One edit from a stem: step 1 answers it exactly.
    const target = `${near[7]!.slice(0, -1)}${near[7]!.endsWith('z') ? 'y' : 'z'}`;
    // 3,000 stems holding every trigram of the target, each 11 units longer than it: none within two edits.
    const longer = Array.from({ length: 3000 }, () => `${target}-${word(10)}`);
    const work = (stems: string[]): { got: string | null; places: number; rows: number } => {
      const lookup = lookupOf(stems);
      // The first targets asked go to the trie (a vault with a few broken links builds no places).
      for (let i = 0; i < 20; i++) closest(`warm-${word(12)}`, lookup);
      startCounting();
      const got = closest(target, lookup);
      const counted = stopCounting();
      return { got, places: counted['resolve.nearPlaces'] ?? 0, rows: counted['resolve.trieRows'] ?? 0 };
    };
    const alone = work(near);
    const crowded = work([...near, ...longer]);
    expect(alone.got).toBe(closestBruteForce(target, near));
    expect(crowded.got).toBe(closestBruteForce(target, [...near, ...longer]));
    expect(alone.places).toBeGreaterThan(0);
    expect(crowded.places).toBe(alone.places);
    expect(crowded.rows).toBe(alone.rows);
  });
});

describe('stemsOfPlaces (step 3 reads its postings from the trigram places)', () => {
  it('gives each stem holding the trigram once, ascending, however often the stem repeats it', () => {
    const stem = fc.array(fc.constantFrom('a', 'b', 'c', '語'), { minLength: 0, maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(stem, { minLength: 1, maxLength: 30 }), (stems) => {
        // The places as the stem index keeps them: per trigram, the stem of each occurrence, ordered by (stem length,
        // offset, stem), so a stem's repeats are not next to each other.
        const places = new Map<string, { i: number; q: number }[]>();
        stems.forEach((s, i) => {
          for (let q = 0; q + 3 <= s.length; q++) {
            const g = s.slice(q, q + 3);
            (places.get(g) ?? places.set(g, []).get(g)!).push({ i, q });
          }
        });
        for (const [g, list] of places) {
          list.sort((a, b) => stems[a.i]!.length - stems[b.i]!.length || a.q - b.q || a.i - b.i);
          const want = stems.flatMap((s, i) => (s.includes(g) ? [i] : []));
          expect([...stemsOfPlaces(Int32Array.from(list, (p) => p.i))], g).toEqual(want);
        }
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe('editDistance', () => {
  /** Plain Levenshtein, the whole table. */
  const levenshtein = (a: string, b: string): number => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++)
        cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[b.length]!;
  };
  it('is the Levenshtein distance when it is at most max, else max + 1', () => {
    const word = fc.array(fc.constantFrom('a', 'b', 'c', 'é', '語'), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 7 }), (a, b, max) => {
        const d = levenshtein(a, b);
        expect(editDistance(a, b, max)).toBe(d <= max ? d : max + 1);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
  it('is the same on strings of up to 40 units (the bit-parallel path up to 32, the band past it), one pattern after another', () => {
    const unit = fc.constantFrom('a', 'b', 'c', '-', 'é', '語', '😀');
    const word = fc.array(unit, { maxLength: 20 }).map((a) => a.join('').slice(0, 40));
    fc.assert(
      fc.property(
        word,
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 12 }),
        (a, bs, max) => {
          // The same pattern against several texts (its table is kept), and each text as the pattern too.
          for (const b of bs) {
            const d = levenshtein(a, b);
            expect(editDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(d <= max ? d : max + 1);
          }
          for (const b of bs) {
            const d = levenshtein(b, a);
            expect(editDistance(b, a, max), `${b} / ${a} / ${max}`).toBe(d <= max ? d : max + 1);
          }
        },
      ),
      { numRuns: propertyRuns(3000) },
    );
    // Near misses of long strings (a small distance at every length up to 40 and past 32).
    for (let n = 1; n <= 40; n++) {
      const a = 'abcdefghij'.repeat(4).slice(0, n);
      for (const b of [
        a.slice(1),
        `${a}x`,
        a.replace('c', 'x'),
        a.slice(0, -1),
        `x${a}`,
        a.split('').reverse().join(''),
      ])
        for (const max of [0, 1, 2, 5, 40]) {
          const d = levenshtein(a, b);
          expect(editDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(d <= max ? d : max + 1);
        }
    }
  });
});
