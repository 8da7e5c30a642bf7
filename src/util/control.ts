/** Control characters (ESC, newline, …) shown as \xNN: a file name can never drive the terminal or split a line. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export const escapeControl = (s: string): string =>
  s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
