import { isReadable } from '../reachability.js';
import { defineRule } from '../types.js';

const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM past the start)',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x3164: 'HANGUL FILLER',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0x2061: 'FUNCTION APPLICATION',
};
const SUSPECT =
  /[\u200B-\u200F\u2060-\u2064\u206A-\u206F\uFEFF\u202A-\u202E\u2066-\u2069\u061C\u180E\u3164\u115F\u1160\uFFA0\uFE00-\uFE0F\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;
const ONE = new RegExp(SUSPECT.source, 'u');
const EMOJI = /\p{Extended_Pictographic}/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const HAN = /\p{Script=Han}/u;
const isVS = (cp: number): boolean => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Malayalam}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Sinhala}\p{Script=Syriac}]/u;

function describe(cp: number): string {
  if (isVS(cp)) return `variation selector U+${cp.toString(16).toUpperCase()} (a run of them can carry hidden bytes)`;
  if (cp >= 0xe0000 && cp <= 0xe007f)
    return `Unicode tag character U+${cp.toString(16).toUpperCase()} (invisible text${cp >= 0xe0020 && cp <= 0xe007e ? `: "${String.fromCodePoint(cp - 0xe0000)}"` : ''})`;
  if (cp === 0x1b) return 'ANSI escape sequence (ESC)';
  return NAMES[cp]
    ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${NAMES[cp]}`
    : `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function cpBefore(text: string, at: number): number {
  if (at <= 0) return 0;
  const lo = text.charCodeAt(at - 1);
  return at >= 2 && lo >= 0xdc00 && lo <= 0xdfff ? text.codePointAt(at - 2)! : lo;
}

/**
 * Legitimate uses: one variation selector after a visible character (emoji presentation ︎/️,
 * an ideographic variant after a Han character); bidi marks on a line with right-to-left text;
 * tag characters of an emoji flag sequence (🏴 + tags).
 */
function legitimateMark(text: string, at: number, cp: number): boolean {
  if (isVS(cp)) {
    const before = cpBefore(text, at);
    if (before === 0 || isVS(before) || /\s/.test(String.fromCodePoint(before))) return false;
    const after = text.codePointAt(at + (cp > 0xffff ? 2 : 1)) ?? 0;
    if (isVS(after)) return false;
    return cp <= 0xfe0f || HAN.test(String.fromCodePoint(before));
  }
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) {
    const start = text.lastIndexOf('\n', at) + 1;
    const end = text.indexOf('\n', at);
    return RTL.test(text.slice(start, end < 0 ? text.length : end).replace(/[\u061C\u200E\u200F]/g, ''));
  }
  if (cp >= 0xe0020 && cp <= 0xe007f) {
    let k = at;
    while (k >= 2 && (text.codePointAt(k - 2) ?? 0) >= 0xe0020 && (text.codePointAt(k - 2) ?? 0) <= 0xe007f) k -= 2;
    return k >= 2 && text.codePointAt(k - 2) === 0x1f3f4;
  }
  return false;
}

/** A joiner between two emoji (👩‍💻) or between letters of a script that needs it is legitimate. */
function legitimateJoiner(text: string, at: number, cp: number): boolean {
  if (cp !== 0x200d && cp !== 0x200c) return false;
  // The code point before, skipping variation selectors and skin-tone modifiers (🏳️‍🌈, 👍🏽‍…).
  let k = at;
  let prev = '';
  while (k > 0) {
    k -= k >= 2 && /[\uDC00-\uDFFF]/.test(text[k - 1]!) && /[\uD800-\uDBFF]/.test(text[k - 2]!) ? 2 : 1;
    const cpPrev = text.codePointAt(k)!;
    if (cpPrev === 0xfe0f || cpPrev === 0xfe0e || (cpPrev >= 0x1f3fb && cpPrev <= 0x1f3ff)) continue;
    prev = String.fromCodePoint(cpPrev);
    break;
  }
  const next = String.fromCodePoint(text.codePointAt(at + 1) ?? 0);
  if (cp === 0x200d && EMOJI.test(prev) && EMOJI.test(next)) return true;
  return JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next);
}

export default defineRule({
  id: 'security/invisible-unicode',
  meta: {
    description: 'Zero-width, bidi, filler, tag, variation-selector and control characters hidden in memory.',
    severity: 'error',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Everything in memory is read into the agent\'s prompt. Characters a person cannot see — zero-width spaces, bidi overrides, Unicode tag characters, ANSI escapes — can carry instructions or disguise text (a "Trojan Source" line reads differently than it runs).',
      fix: 'Delete the character (the message names it and its position). Allowed: a zero-width joiner inside an emoji sequence, a joiner or non-joiner inside Arabic, Persian or Indic words, bidi marks on a line with right-to-left text, one variation selector after a visible character.',
    },
    messages: { hidden: 'hidden character: {what}{run}' },
  },
  checkFile(file, { report }) {
    if (!isReadable(file) && file.problem?.kind !== 'too-large') return; // too large: its loaded head is scanned
    const text = file.text;
    SUSPECT.lastIndex = 0;
    let lastEnd = -2;
    for (let m = SUSPECT.exec(text); m; m = SUSPECT.exec(text)) {
      const cp = m[0].codePointAt(0)!;
      if (legitimateJoiner(text, m.index, cp) || legitimateMark(text, m.index, cp)) continue;
      if (m.index === lastEnd) {
        lastEnd = m.index + m[0].length;
        continue;
      } // one finding per run
      let end = m.index + m[0].length;
      while (
        end < text.length &&
        ONE.test(String.fromCodePoint(text.codePointAt(end)!)) &&
        !legitimateMark(text, end, text.codePointAt(end)!) &&
        !legitimateJoiner(text, end, text.codePointAt(end)!)
      )
        end += text.codePointAt(end)! > 0xffff ? 2 : 1;
      SUSPECT.lastIndex = end;
      lastEnd = end;
      const count = [...text.slice(m.index, end)].length;
      report({
        messageId: 'hidden',
        file,
        offset: m.index,
        length: end - m.index,
        data: {
          what: describe(cp),
          codePoint: cp,
          run: count > 1 ? ` and ${count - 1} more hidden character(s) after it` : '',
        },
      });
    }
  },
});
