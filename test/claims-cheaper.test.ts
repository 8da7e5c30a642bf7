// The claims' cheaper paths (issue 14) give the old answers: white space read by char code, ASCII clauses'
// words read with an ASCII regex, and the polarity comparison read from a per-note list of things (things both
// used and refused left out, the subject asked last) rather than every thing's stance looked up per pair.
import { describe, expect, it } from 'vitest';
import {
  forEachAsciiWord,
  claimConflict,
  identifiers,
  claimSentences,
  isSpace,
  mayBeCjk,
  noteClaims,
  refusalWords,
  refusedNear,
  refuses,
  sameThing,
  scoped,
  sharesSubject,
  splitClauses,
  type NoteClaims,
  type Stance,
} from '../src/similarity/claims.js';
import { cleanSentence, isCjk } from '../src/similarity/text.js';
import { startCounting, stopCounting } from '../src/util/counters.js';
import { seeded } from './helpers/seeded.js';

describe('isSpace', () => {
  it('is /\\s/ on every UTF-16 unit', () => {
    const differ: string[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c.toString(16));
    expect(differ).toEqual([]);
  });
});

describe('mayBeCjk', () => {
  it('holds for every code point isCjk holds for (alone, and after ASCII text)', () => {
    const missed: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const t = String.fromCodePoint(c);
      if (isCjk(t) && !(mayBeCjk(t) && mayBeCjk(`ab${t}`))) missed.push(c.toString(16));
    }
    expect(missed).toEqual([]);
    expect(mayBeCjk('plain ascii, é and ü')).toBe(false);
  });
});

describe('stances of a note', () => {
  it('are per key: a key refused later does not change another key first met in the same sentence', () => {
    const c = noteClaims(
      claimSentences([
        'Use alphaword and betaword with `gammacmd` and `deltacmd` here.',
        'Never use betaword or `deltacmd`.',
      ]),
    );
    expect(c.words.get('alphaword')).toEqual({ pos: 0, neg: -1 });
    expect(c.words.get('betaword')).toEqual({ pos: 0, neg: 1 });
    expect(c.things.get('gammacmd')).toEqual({ pos: 0, neg: -1 });
    expect(c.things.get('deltacmd')).toEqual({ pos: 0, neg: 1 });
    const later = noteClaims(claimSentences(['Never alphaword nor betaword.', 'Use betaword.', 'Use alphaword here.']));
    expect(later.words.get('alphaword')).toEqual({ pos: 2, neg: 0 });
    expect(later.words.get('betaword')).toEqual({ pos: 1, neg: 0 });
  });
});

describe('words of an ASCII clause', () => {
  it('are the words the Unicode regex reads (the same clause with a non-ASCII sign forces it)', () => {
    const r = seeded(3);
    const PIECES = ['use', 'Never', "don't", 'x.y', 'a-b-', '__init__', '42', '3.5', "it's.", '--flag', 'No', 'main'];
    const SEPS = [' ', ', ', '. ', ' (', ') ', '`', ' ', '!', '\t', "'", '-', '.'];
    for (let k = 0; k < 2000; k++) {
      const parts: string[] = [];
      for (let i = 1 + Math.floor(r() * 14); i > 0; i--)
        parts.push(PIECES[Math.floor(r() * PIECES.length)]!, SEPS[Math.floor(r() * SEPS.length)]!);
      const text = parts.join('');
      const ascii = noteClaims(claimSentences([text])).words;
      // U+00B7 is neither a letter nor a digit and no claim pattern names it: only the regex choice differs.
      const unicode = noteClaims(claimSentences([`${text} \u00b7`])).words;
      expect([...ascii], JSON.stringify(text)).toEqual([...unicode]);
    }
  });
});

describe('forEachAsciiWord', () => {
  it("finds the words WORD_ASCII matches, lower-cased, trailing . ' - dropped, at the match places", () => {
    const WORD_ASCII = /[A-Za-z0-9_][A-Za-z0-9_.'-]*/g;
    const reference = (text: string): [string, number, number][] =>
      [...text.matchAll(WORD_ASCII)]
        .map((m): [string, number, number] => [
          m[0].toLowerCase().replace(/[.'-]+$/, ''),
          m.index,
          m.index + m[0].length,
        ])
        .filter(([w]) => w.length > 1);
    const r = seeded(11);
    const UNITS = [...'aZ09_.\'- \t,;:!?()`/\\"@#$%^&*+=[]{}|~<>', 'ab', 'Never', '--x', "it's.", 'a-', 'X.Y.'];
    for (let k = 0; k < 4000; k++) {
      let text = '';
      for (let i = Math.floor(r() * 30); i > 0; i--) text += UNITS[Math.floor(r() * UNITS.length)]!;
      const got: [string, number, number][] = [];
      forEachAsciiWord(text, (w, s, e) => got.push([w, s, e]));
      expect(got, JSON.stringify(text)).toEqual(reference(text));
    }
  });
});

describe('clauses and sentences without the regexes that would give them back', () => {
  const r = seeded(29);
  const UNITS = [
    ...'ab ,;-—–，；、\t\u00a0\u3000.:*>#()',
    'but',
    'But',
    'BUT',
    ' but ',
    ' BuT ',
    'never',
    'não',
    'no',
    '部署',
    '배포',
    '**Why:**',
    '**How to apply:**',
    '**',
    '- ',
    '12. ',
    '> ',
    '  ',
    'ſ',
    'K',
  ];
  const text = (): string => {
    let t = '';
    for (let i = Math.floor(r() * 24); i > 0; i--) t += UNITS[Math.floor(r() * UNITS.length)]!;
    return t;
  };
  it('claim clauses are the CLAIM_SPLIT clauses (the split skipped when no separator may be there)', () => {
    const CLAIM_SPLIT =
      /;|；|,(?=\s*[\p{Script=Han}\p{Script=Hangul}])|\s[-–—]\s|—|\s+but\s+|，|,\s*(?=(?:never|not|don't|do not|no|but|não|nunca|nem|mas)(?:$|[^\p{L}]))/iu;
    let split = 0;
    for (let k = 0; k < 6000; k++) {
      const t = text();
      const expected = t
        .split(CLAIM_SPLIT)
        .map((c) => c.trim())
        .filter((c) => c.length > 1);
      if (t.split(CLAIM_SPLIT).length > 1) split++;
      expect(
        claimSentences([t])[0]!.clauses.map((c) => c.text),
        JSON.stringify(t),
      ).toEqual(expected);
    }
    expect(split).toBeGreaterThan(1000);
  });
  it('a sentence is cleaned as the three rewrites clean it (two run only where they may change it)', () => {
    const reference = (raw: string): string =>
      raw
        .replace(/\*\*(Why|How to apply):?\*\*:?/gi, '')
        .replace(/^(?:[\s\-*+>#]|\d{1,3}[.)](?=\s))+/, '')
        .replace(/\s+/g, ' ')
        .trim();
    for (let k = 0; k < 6000; k++) {
      const t = text();
      expect(cleanSentence(t), JSON.stringify(t)).toBe(reference(t));
    }
  });
});

describe('identifiers', () => {
  it('are the matches of the identifier regex, which runs only where a small letter meets a capital or `_` joins capitals', () => {
    const IDENT = /(?<![\w$-])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w-])/g;
    const reference = (text: string): [string, number][] => [...text.matchAll(IDENT)].map((m) => [m[0], m.index]);
    const r = seeded(23);
    const UNITS = [...'aZq09_-$. \t,`', 'Ab', 'aB', 'A_B', '_X', 'X_', '9_Z', 'aPI', 'FOO_BAR', 'localStorage', 'The'];
    let found = 0;
    for (let k = 0; k < 6000; k++) {
      let text = '';
      for (let i = Math.floor(r() * 24); i > 0; i--) text += UNITS[Math.floor(r() * UNITS.length)]!;
      const expected = reference(text);
      found += expected.length;
      expect(
        [...identifiers(text)].map((m) => [m[0], m.index]),
        JSON.stringify(text),
      ).toEqual(expected);
    }
    expect(found).toBeGreaterThan(1000);
  });
});

/** The polarity comparison as it was: every thing of each note, its stance in the other looked up per pair. */
function referencePolarity(a: NoteClaims, b: NoteClaims): unknown {
  const onlyPos = (s: Stance): boolean => s.pos >= 0 && s.neg < 0;
  const onlyNeg = (s: Stance): boolean => s.neg >= 0 && s.pos < 0;
  const stanceIn = (n: NoteClaims, thing: string): (Stance & { prose?: true }) | undefined => {
    const direct = n.things.get(thing);
    if (direct) return direct;
    const w = /\s/.test(thing) ? undefined : n.words.get(thing);
    return w ? { ...w, prose: true } : undefined;
  };
  const spansWith = (n: NoteClaims, word: string): string[] =>
    [...n.things.keys()].filter((t) => /\s/.test(t) && t.split(/\s+/).includes(word));
  const seen = new Set<string>();
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const [thing, sx] of x.things) {
      if (seen.has(thing)) continue;
      seen.add(thing);
      let sy = stanceIn(y, thing);
      if (!sy && (/\s/.test(thing) || thing.startsWith('-')))
        for (const other of spansWith(y, thing.split(/\s+/)[0]!))
          if (sameThing(thing, other)) {
            sy = y.things.get(other);
            break;
          }
      if (!sy) continue;
      const flip = x === b;
      const ix = onlyPos(sx) ? sx.pos : sx.neg,
        iy = onlyPos(sy) ? sy.pos : sy.neg;
      if (ix < 0 || iy < 0 || (!/\s/.test(thing) && !sharesSubject(x, ix, y, iy, thing))) continue;
      if (onlyPos(sx) && onlyNeg(sy))
        return flip
          ? { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: sy.neg, b: sx.pos }
          : { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: sx.pos, b: sy.neg };
      if (onlyNeg(sx) && onlyPos(sy) && !sy.prose)
        return flip
          ? { kind: 'polarity', detail: `\`${thing}\` used in one, refused in the other`, a: sy.pos, b: sx.neg }
          : { kind: 'polarity', detail: `\`${thing}\` refused in one, used in the other`, a: sx.neg, b: sy.pos };
    }
  }
  return null;
}

describe('polarity conflicts from the per-note thing list', () => {
  it('are the conflicts every stance looked up per pair found, first one first', () => {
    const r = seeded(19);
    const THINGS = ['`npm`', '`pnpm`', '`git push --force`', '`--force`', '`--no-verify`', 'localStorage', '`main`'];
    const WORDS = ['use', 'deploy', 'script', 'npm', 'main', 'branch', 'tests', 'release', 'force', 'cache'];
    const LEADS = ['never use', "don't run", 'always use', 'we use', 'avoid', 'run', 'no longer use', ''];
    const sentence = (): string => {
      const words = [LEADS[Math.floor(r() * LEADS.length)]!, THINGS[Math.floor(r() * THINGS.length)]!];
      for (let i = Math.floor(r() * 5); i > 0; i--) words.push(WORDS[Math.floor(r() * WORDS.length)]!);
      if (r() < 0.3) words.push('is forbidden');
      return words.join(' ');
    };
    // Only the polarity part: no values, rules or frames.
    const polarityOnly = (c: NoteClaims): NoteClaims => ({
      ...c,
      values: new Map(),
      rules: new Map(),
      frames: noteClaims([]).frames,
    });
    const notes = Array.from({ length: 80 }, () =>
      polarityOnly(noteClaims(claimSentences(Array.from({ length: 1 + Math.floor(r() * 5) }, sentence)))),
    );
    startCounting();
    let found = 0;
    for (const a of notes)
      for (const b of notes) {
        if (a === b) continue;
        const expected = referencePolarity(a, b);
        expect(claimConflict(a, b)).toEqual(expected);
        if (expected) found++;
      }
    const counts = stopCounting();
    // Conflicts of both kinds and directions were there to find, and the lists were read.
    expect(found).toBeGreaterThan(500);
    expect(counts['claims.thingReads']).toBeGreaterThan(0);
  });
});

describe('refusals near a word, read only where a refusing word may be', () => {
  it('are the refusals the regexes find around every word', () => {
    const r = seeded(23);
    const PIECES = [
      'never',
      'NEVER',
      "don't",
      'do',
      'not',
      'no',
      'No',
      'longer',
      'removed',
      'is',
      'forbidden',
      'instead',
      'of',
      'nunca',
      'não',
      'use',
      'é',
      'mais',
      'ſtop',
      'stop',
      'isn’t',
      "isn't",
      'used',
      'the',
      'da',
      'Kelvin',
      '`npm`',
      'main',
      'x',
      '**',
      ',',
      '.',
      'evite',
      'nem',
      'deprecated',
      'gone',
      'even',
      'now',
    ];
    const SEPS = [' ', '  ', '\t', '\n', '\u00a0', ', ', ' — '];
    let refused = 0;
    for (let k = 0; k < 1500; k++) {
      const parts: string[] = [];
      for (let i = 1 + Math.floor(r() * 16); i > 0; i--)
        parts.push(PIECES[Math.floor(r() * PIECES.length)]!, SEPS[Math.floor(r() * SEPS.length)]!);
      const text = parts.join('');
      const near = refusalWords(text);
      // Everywhere: a refusing word may start before every word and after it.
      // (ascii: false, the Unicode regexes: on ASCII texts `near` reads with their ASCII twins.)
      const all = Array.from({ length: text.length + 1 }, (_, i) => i);
      const everywhere = { before: -1, befores: all, after: all, ascii: false };
      for (const m of text.matchAll(/\S+/g)) {
        const [start, end] = [m.index, m.index + m[0].length];
        const full = refusedNear(text, start, end, false, everywhere);
        expect(refusedNear(text, start, end, false, near), JSON.stringify([text, start, end])).toBe(full);
        if (full) refused++;
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it('on ASCII clauses, read with the ASCII twins, are what the Unicode regexes read', () => {
    const r = seeded(31);
    const PIECES = [
      'never',
      'NEVER',
      "don't",
      'dont',
      'do',
      'does',
      'must',
      "mustn't",
      'should',
      'not',
      'no',
      'No',
      'longer',
      'removed',
      'replaced',
      'ditched',
      'is',
      'was',
      'has been',
      'foi',
      'fica',
      'forbidden',
      'Banned',
      'instead',
      'of',
      'nunca',
      'jamais',
      'evitar',
      'evite',
      'nem',
      'removidos',
      'proibida',
      'descontinuado',
      'use',
      'used',
      'allowed',
      "isn't",
      "aren't",
      'even',
      'now',
      'stop',
      'the',
      'da',
      'de',
      'para',
      'los',
      'en',
      '`npm`',
      'main',
      'x',
      '_',
      '1',
      '**',
      ')',
      'gone',
      'obsolete',
      'retired',
      'nemo',
      'xno',
    ];
    const SEPS = [' ', '  ', '\t', ', ', '. ', '; ', '(', '-', "'"];
    let refused = 0,
      read = 0;
    for (let k = 0; k < 2500; k++) {
      const parts: string[] = [];
      for (let i = 1 + Math.floor(r() * 14); i > 0; i--)
        parts.push(PIECES[Math.floor(r() * PIECES.length)]!, SEPS[Math.floor(r() * SEPS.length)]!);
      const text = parts.join('');
      const twins = refusalWords(text, true);
      const unicode = refusalWords(text, false);
      expect(twins.ascii).toBe(true);
      expect([twins.before, twins.after], JSON.stringify(text)).toEqual([unicode.before, unicode.after]);
      for (const m of text.matchAll(/\S+/g)) {
        const [start, end] = [m.index, m.index + m[0].length];
        const want = refusedNear(text, start, end, false, unicode);
        expect(refusedNear(text, start, end, false, twins), JSON.stringify([text, start, end])).toBe(want);
        if (want) refused++;
        read++;
      }
    }
    expect(refused).toBeGreaterThan(1500);
    expect(read - refused).toBeGreaterThan(1500);
  });
});

describe('clauses of an ASCII sentence', () => {
  it('split by the ASCII twin of CLAIM_SPLIT are the clauses the Unicode one splits', () => {
    const r = seeded(37);
    const PIECES = ['never', 'not', "don't", 'do not', 'no', 'NO', 'but', 'But', 'nunca', 'nem', 'mas', 'x', 'nobody'];
    const SEPS = [' ', ', ', ',', '; ', ' - ', '-', ' -', '- ', ' but ', '  but  ', ',  ', '.', ', no', '(', "'"];
    let split = 0;
    for (let k = 0; k < 4000; k++) {
      const parts: string[] = [];
      for (let i = 1 + Math.floor(r() * 10); i > 0; i--)
        parts.push(PIECES[Math.floor(r() * PIECES.length)]!, SEPS[Math.floor(r() * SEPS.length)]!);
      const text = parts.join('');
      const want = splitClauses(text, false);
      expect(splitClauses(text, true), JSON.stringify(text)).toEqual(want);
      if (want.length > 1) split++;
    }
    expect(split).toBeGreaterThan(2000);
  });
});

describe('refusal and scope on ASCII clauses', () => {
  it('read with the ASCII regexes, are what the Unicode ones read', () => {
    const r = seeded(29);
    const PIECES = [
      'nao',
      'NAO',
      'nunca',
      'Jamais',
      'evitar',
      'evite',
      'evita',
      'proibido',
      'proibida',
      'removidos',
      'removida',
      'descontinuado',
      'prohibido',
      'when',
      'Whenever',
      'only',
      'unless',
      'except',
      'may',
      'might',
      'still',
      'legacy',
      'until',
      'if',
      'optionally',
      'somente',
      'apenas',
      'exceto',
      'ainda',
      'salvo',
      'no',
      'No',
      'not',
      'da',
      'use',
      'x',
      '_',
      '1',
      '**',
      '-',
      "'",
      '`a`',
      'evitando',
      'ifs',
      'knao',
    ];
    const SEPS = [' ', '', ', ', '. ', '  ', '\t', '(', ')', '_', '1'];
    let refusing = 0,
      scopedCount = 0;
    for (let k = 0; k < 4000; k++) {
      const parts: string[] = [];
      for (let i = 1 + Math.floor(r() * 10); i > 0; i--)
        parts.push(SEPS[Math.floor(r() * SEPS.length)]!, PIECES[Math.floor(r() * PIECES.length)]!);
      const text = parts.join('');
      // ascii = false: the Unicode regexes on the same (ASCII) text.
      expect(refuses(text, true), JSON.stringify(text)).toBe(refuses(text, false));
      expect(scoped(text, true), JSON.stringify(text)).toBe(scoped(text, false));
      if (refuses(text, false)) refusing++;
      if (scoped(text, false)) scopedCount++;
    }
    expect(refusing).toBeGreaterThan(500);
    expect(scopedCount).toBeGreaterThan(500);
  });
});
