import { isReadable } from '../shared.js';
import { defineRule } from '../types.js';

const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE', 0x200c: 'ZERO WIDTH NON-JOINER', 0x200d: 'ZERO WIDTH JOINER', 0x2060: 'WORD JOINER',
  0x2062: 'INVISIBLE TIMES', 0x2063: 'INVISIBLE SEPARATOR', 0x2064: 'INVISIBLE PLUS', 0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM past the start)',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING', 0x202b: 'RIGHT-TO-LEFT EMBEDDING', 0x202c: 'POP DIRECTIONAL FORMATTING', 0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE', 0x2066: 'LEFT-TO-RIGHT ISOLATE', 0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE', 0x2069: 'POP DIRECTIONAL ISOLATE',
};
const SUSPECT = /[\u200B-\u200D\u2060\u2062-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;
const ONE = new RegExp(SUSPECT.source, 'u');
const EMOJI = /\p{Extended_Pictographic}/u;
const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Malayalam}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Sinhala}\p{Script=Syriac}]/u;

function describe(cp: number): string {
  if (cp >= 0xe0000 && cp <= 0xe007f) return `Unicode tag character U+${cp.toString(16).toUpperCase()} (invisible text${cp >= 0xe0020 && cp <= 0xe007e ? `: "${String.fromCodePoint(cp - 0xe0000)}"` : ''})`;
  if (cp === 0x1b) return 'ANSI escape sequence (ESC)';
  return NAMES[cp] ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${NAMES[cp]}` : `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
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
    description: 'Zero-width, bidi, tag and control characters hidden in memory.',
    severity: 'error',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Everything in memory is read into the agent\'s prompt. Characters a person cannot see — zero-width spaces, bidi overrides, Unicode tag characters, ANSI escapes — can carry instructions or disguise text (a "Trojan Source" line reads differently than it runs).',
      fix: 'Delete the character (the message names it and its position). A zero-width joiner inside an emoji sequence is allowed.',
    },
    messages: { hidden: 'hidden character: {what}{run}' },
  },
  checkFile(file, { report }) {
    if (!isReadable(file)) return;
    const text = file.text;
    SUSPECT.lastIndex = 0;
    let lastEnd = -2;
    for (let m = SUSPECT.exec(text); m; m = SUSPECT.exec(text)) {
      const cp = m[0].codePointAt(0)!;
      if (legitimateJoiner(text, m.index, cp)) continue;
      if (m.index === lastEnd) { lastEnd = m.index + m[0].length; continue; } // one finding per run
      let end = m.index + m[0].length;
      while (end < text.length && ONE.test(String.fromCodePoint(text.codePointAt(end)!))) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
      SUSPECT.lastIndex = end;
      lastEnd = end;
      const count = [...text.slice(m.index, end)].length;
      report({ messageId: 'hidden', file, offset: m.index, length: end - m.index, data: { what: describe(cp), codePoint: cp, run: count > 1 ? ` and ${count - 1} more hidden character(s) after it` : '' } });
    }
  },
});
