/** Bad input gets a finding or a one-line error, never a stack trace; exit 2 only for an unreadable vault. */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkJson } from './contract.js';
import { runBin, tempDir } from './helpers/run.js';

const NOTE = (name: string, body = 'body'): string =>
  `---\nname: ${name}\ndescription: about ${name}\ntype: user\n---\n\n${body}\n`;

function vaultWith(files: Record<string, string | Buffer>): string {
  const dir = join(tempDir(), 'vault');
  mkdirSync(dir, { recursive: true });
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

function checkOk(dir: string): ReturnType<typeof checkJson.parse> {
  const r = runBin(['check', dir, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect([0, 1]).toContain(r.code);
  return checkJson.parse(JSON.parse(r.stdout));
}

describe('bad input', () => {
  it('a 10 MB note is reported and not parsed', () => {
    const dir = vaultWith({ 'MEMORY.md': '- [big](big.md)\n', 'big.md': NOTE('big', 'x'.repeat(10 * 1024 * 1024)) });
    const json = checkOk(dir);
    const f = json.findings.find((x) => x.file === 'big.md' && x.ruleId === 'file/unreadable');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toMatch(/too large/);
  });

  it('file names with spaces, non-Latin letters and a newline', () => {
    const dir = vaultWith({
      'MEMORY.md': '- [spaced](<a note.md>)\n- [日本語](メモ.md)\n- [odd](odd%0Aname.md)\n',
      'a note.md': NOTE('spaced'),
      'メモ.md': NOTE('japanese'),
      'odd\nname.md': NOTE('odd'),
    });
    const json = checkOk(dir);
    expect(json.findings.filter((f) => f.ruleId === 'note/orphan' || f.ruleId === 'index/dangling-link')).toEqual([]);
    expect(json.summary.notes).toBe(3);
  });

  it('an empty folder (no index, no notes) is a usage error in one line, not a clean vault', () => {
    const r = runBin(['check', vaultWith({})]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: check: .* holds no MEMORY.md and no notes: nothing to check .*\n$/);
  });

  it('a vault without MEMORY.md says so', () => {
    const json = checkOk(vaultWith({ 'a.md': NOTE('a') }));
    expect(json.findings.map((f) => f.ruleId)).toContain('index/missing');
    expect(json.index).toBeNull();
  });

  it('a symlink loop through folders and a link out of the vault are reported, never followed', () => {
    const dir = vaultWith({ 'MEMORY.md': '- [a](a.md)\n', 'a.md': NOTE('a'), 'sub/b.md': NOTE('b') });
    symlinkSync('..', join(dir, 'sub', 'up'));
    symlinkSync('/etc/passwd', join(dir, 'passwd.md'));
    const json = checkOk(dir);
    expect(json.findings.find((f) => f.file === 'passwd.md')?.message).toMatch(/outside the vault/);
    expect(json.findings.some((f) => f.file.startsWith('sub/up'))).toBe(false);
  });

  it('BOM + CRLF keep positions right', () => {
    const dir = vaultWith({
      'MEMORY.md': '\uFEFF- [a](a.md)\r\n',
      'a.md': '\uFEFF---\r\nname: a\r\ndescription: d\r\ntype: user\r\n---\r\n\r\nsee [[nope]]\r\n',
    });
    const json = checkOk(dir);
    const f = json.findings.find((x) => x.ruleId === 'note/broken-wikilink')!;
    expect([f.line, f.column]).toEqual([7, 5]);
  });

  it('an unreadable folder inside the vault does not stop the check', () => {
    if (process.getuid?.() === 0) return; // root reads everything; nothing to prove here
    const dir = vaultWith({ 'MEMORY.md': '- [a](a.md)\n', 'a.md': NOTE('a'), 'locked/b.md': NOTE('b') });
    chmodSync(join(dir, 'locked'), 0o000);
    try {
      checkOk(dir);
    } finally {
      chmodSync(join(dir, 'locked'), 0o755);
    }
  });

  it('an invalid-UTF-8 note is reported at the bad byte and still checked', () => {
    const dir = vaultWith({
      'MEMORY.md': '- [a](a.md)\n',
      'a.md': Buffer.concat([
        Buffer.from('---\nname: a\ndescription: d\ntype: user\n---\n\nok\nbad \xff here [[gone]]\n', 'latin1'),
      ]),
    });
    const json = checkOk(dir);
    const bad = json.findings.find((f) => f.ruleId === 'file/unreadable')!;
    expect([bad.line, bad.column]).toEqual([8, 5]);
    expect(json.findings.some((f) => f.ruleId === 'note/broken-wikilink')).toBe(true);
  });
});
