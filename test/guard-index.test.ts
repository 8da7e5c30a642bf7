/**
 * Issue 18: guard at write time for the index and the stores, through the Claude Code hook protocol
 * (Write, Edit, MultiEdit of MEMORY.md at, just under and past the cut, in lines and in UTF-16
 * units, CJK included), the orphan and unreachable cases, and Hermes' add budget.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from './helpers/run.js';

const note = (i: number): string =>
  `---\nname: note ${i}\ndescription: fact number ${i}\ntype: project\n---\n\nFact number ${i}.\n`;
// A new note that shares no words with the others (so only the index is in question, not a duplicate or a conflict).
const fresh = (): string =>
  '---\nname: deploy day\ndescription: when deploys go out\ntype: project\n---\n\nDeploys go out on Tuesdays after the smoke tests pass.\n';
const line = (i: number, hook = `fact number ${i}`): string => `- [Note ${i}](note-${i}.md) — ${hook}`;
const indexOf = (n: number, hook?: (i: number) => string): string =>
  `${Array.from({ length: n }, (_, k) => line(k + 1, hook?.(k + 1))).join('\n')}\n`;

// The hook guards Claude Code's memory folders: each vault is a project's auto memory under one fake HOME.
const HOME = tempDir();
let projects = 0;

function vaultWith(indexLines: number, notes = 260, hook?: (i: number) => string): string {
  const dir = join(HOME, '.claude', 'projects', `-work-project-${++projects}`, 'memory');
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= notes; i++) writeFileSync(join(dir, `note-${i}.md`), note(i));
  writeFileSync(join(dir, 'MEMORY.md'), indexOf(indexLines, hook));
  return dir;
}

const hook = (payload: unknown) =>
  runBin(['guard', '--claude-hook'], { stdin: JSON.stringify(payload), env: { HOME } });
const answer = (r: {
  stdout: string;
}): { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string } | null =>
  r.stdout ? JSON.parse(r.stdout).hookSpecificOutput : null;
const write = (vault: string, content: string, file = 'MEMORY.md') =>
  hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(vault, file), content } });
const CJK = (i: number): string => `第${i}条：部署前先运行测试，数据库迁移需要人工确认，周五不发布新版本的规则说明`;

describe('Write of MEMORY.md (lines)', () => {
  const vault = vaultWith(150);
  it('just under the headroom: passes silently', () => {
    expect(write(vault, indexOf(170))).toMatchObject({ code: 0, stdout: '' });
  });
  it('at the cut (200 lines): asks, with the room left', () => {
    const a = answer(write(vault, indexOf(200)))!;
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/0 lines and \d+ UTF-16 units left \(200\/200 lines/);
  });
  it('past the cut (201 lines): denied, naming the lost entry and the fix', () => {
    const a = answer(write(vault, indexOf(201)))!;
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toMatch(
      /201 lines .* only 200 lines are loaded; 1 entry would never be seen: line 201 "- \[Note 201\]\(note-201.md\)/,
    );
    expect(a.permissionDecisionReason).toMatch(/move detail into topic notes/);
  });
  it('the 262-line Write of the issue is denied and names the first lost entries', () => {
    const a = answer(write(vault, indexOf(262)))!;
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toMatch(/62 entries would never be seen: line 201 .*line 205 .*and 57 more/);
  });
  it('leading blank lines are not counted (Claude Code trims them)', () => {
    expect(answer(write(vault, `\n\n\n${indexOf(170)}`))).toBeNull();
  });
});

describe('Write of MEMORY.md (UTF-16 units, CJK)', () => {
  const vault = vaultWith(10);
  const long = (n: number, width: number): string => indexOf(n, (i) => `${'x'.repeat(width)} ${i}`);
  it('just under the headroom in units: passes', () => {
    const text = long(100, 180);
    expect(text.trim().length).toBeLessThan(22_500);
    expect(answer(write(vault, text))).toBeNull();
  });
  it('near 25,000 units: asks with the room left', () => {
    const text = long(100, 215);
    expect(text.trim().length).toBeGreaterThan(22_500);
    expect(text.trim().length).toBeLessThanOrEqual(25_000);
    expect(answer(write(vault, text))!.permissionDecisionReason).toMatch(/UTF-16 units left/);
  });
  it('past 25,000 units: denied, naming the entries past the cut', () => {
    const text = long(110, 235);
    const a = answer(write(vault, text))!;
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toMatch(/past what Claude Code loads \(200 lines, 25000 UTF-16 units\)/);
    const first = Number(/would never be seen: line (\d+) "- \[Note (\d+)\]/.exec(a.permissionDecisionReason!)![1]);
    expect(first).toBeGreaterThan(90);
    expect(first).toBeLessThan(100);
  });
  it('a CJK index over 25,000 UTF-8 bytes but under 22,500 UTF-16 units passes (Claude Code counts .length)', () => {
    const text = indexOf(175, (i) => CJK(i) + CJK(i));
    expect(Buffer.byteLength(text)).toBeGreaterThan(25_000);
    expect(text.trim().length).toBeLessThan(22_500);
    expect(answer(write(vault, text))).toBeNull();
  });
  it('a 201-line CJK index is denied at line 201', () => {
    const a = answer(write(vault, indexOf(201, CJK)))!;
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toMatch(/1 entry would never be seen: line 201/);
  });
});

describe('Edit and MultiEdit of MEMORY.md', () => {
  it('an Edit that appends the 201st line is denied', () => {
    const vault = vaultWith(200);
    const last = line(200);
    const r = hook({
      tool_name: 'Edit',
      tool_input: { file_path: join(vault, 'MEMORY.md'), old_string: last, new_string: `${last}\n${line(201)}` },
    });
    expect(answer(r)!.permissionDecision).toBe('deny');
    expect(answer(r)!.permissionDecisionReason).toMatch(/line 201 "- \[Note 201\]/);
  });
  it('an Edit that shortens an index already past the cut is not refused', () => {
    const vault = vaultWith(205);
    const r = hook({
      tool_name: 'Edit',
      tool_input: { file_path: join(vault, 'MEMORY.md'), old_string: `${line(205)}\n`, new_string: '' },
    });
    const a = answer(r);
    expect(a?.permissionDecision).not.toBe('deny');
  });
  it('a MultiEdit that adds two lines to a 199-line index is denied; one that adds one asks', () => {
    const vault = vaultWith(199);
    const edits = (n: number) => [
      { old_string: line(199), new_string: `${line(199)}\n${line(200)}` },
      ...(n > 1 ? [{ old_string: line(200), new_string: `${line(200)}\n${line(201)}` }] : []),
    ];
    expect(
      answer(hook({ tool_name: 'MultiEdit', tool_input: { file_path: join(vault, 'MEMORY.md'), edits: edits(2) } }))!
        .permissionDecision,
    ).toBe('deny');
    expect(
      answer(hook({ tool_name: 'MultiEdit', tool_input: { file_path: join(vault, 'MEMORY.md'), edits: edits(1) } }))!
        .permissionDecision,
    ).toBe('ask');
  });
  it('an Edit that removes the only line linking a note asks, naming the note', () => {
    const vault = vaultWith(20);
    const r = hook({
      tool_name: 'Edit',
      tool_input: { file_path: join(vault, 'MEMORY.md'), old_string: `${line(7)}\n`, new_string: '' },
    });
    const a = answer(r)!;
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/removes the only path to 1 note\(s\).*note-7\.md/);
  });
  it('removing a line whose note another loaded note links does not ask', () => {
    const vault = vaultWith(20);
    writeFileSync(join(vault, 'note-3.md'), `${note(3)}\nSee [note 7](note-7.md).\n`);
    const r = hook({
      tool_name: 'Edit',
      tool_input: { file_path: join(vault, 'MEMORY.md'), old_string: `${line(7)}\n`, new_string: '' },
    });
    expect(answer(r)).toBeNull();
  });
  it('an Edit that adds a link to a missing note asks, naming it', () => {
    const vault = vaultWith(20, 20);
    const r = hook({
      tool_name: 'Edit',
      tool_input: {
        file_path: join(vault, 'MEMORY.md'),
        old_string: line(20),
        new_string: `${line(20)}\n- [Gone](gone-note.md) — never written`,
      },
    });
    expect(answer(r)!.permissionDecisionReason).toMatch(/links to notes that do not exist: gone-note\.md/);
  });
});

describe('a new note and its index line', () => {
  it('a new note with no index line: allowed, and the answer says so', () => {
    const vault = vaultWith(20);
    const a = answer(write(vault, fresh(), 'note-999.md'))!;
    expect(a.permissionDecision).toBeUndefined();
    expect(a.additionalContext).toMatch(/no line in MEMORY.md links note-999.md yet/);
  });
  it('a new note whose index line is already there: silent', () => {
    const vault = vaultWith(20);
    writeFileSync(join(vault, 'MEMORY.md'), `${indexOf(20)}- [Note 999](note-999.md) — fact number 999\n`);
    expect(write(vault, fresh(), 'note-999.md').stdout).toBe('');
  });
  it('a new note when the index has no room for its line: asks', () => {
    const vault = vaultWith(200);
    const a = answer(write(vault, fresh(), 'note-999.md'))!;
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/has no room for this note's line: 0 lines/);
  });
});

describe('guard CLI and Hermes stores', () => {
  it('guard --path MEMORY.md --format json: refuse, with what is measured and lost', () => {
    const vault = vaultWith(10);
    const r = runBin(['guard', vault, '--path', 'MEMORY.md', '--format', 'json'], { stdin: indexOf(203) });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.verdict).toBe('refuse');
    expect(json.index.measured).toMatchObject({ lines: 203, maxLines: 200, max: 25_000, unit: 'UTF-16 units' });
    expect(json.index.measured.lost.map((e: { line: number }) => e.line)).toEqual([201, 202, 203]);
  });

  const store = (text: string): string => {
    const dir = join(tempDir(), 'hermes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), text);
    writeFileSync(join(dir, 'USER.md'), 'Name: Alice\n§\nPrefers short answers.');
    return dir;
  };
  it('an add that would overflow the budget is refused with the budget and the current use, as Hermes does', () => {
    const vault = store(`${'x'.repeat(2100)}\n§\nsecond entry`);
    const r = runBin(['guard', vault, '--format', 'json'], {
      stdin: 'this entry will not fit in the remaining budget of the store, which is nearly full already',
    });
    const json = JSON.parse(r.stdout);
    expect(json.verdict).toBe('refuse');
    expect(json.reasons.join(' ')).toMatch(
      /MEMORY\.md at 2,115\/2,200 chars\. Adding this entry \(\d+ chars\) would exceed the limit/,
    );
  });
  it('an add that fits passes; an empty entry is refused', () => {
    const vault = store('first entry\n§\nsecond entry');
    expect(
      JSON.parse(runBin(['guard', vault, '--format', 'json'], { stdin: 'The NAS runs fnOS on port 5666.' }).stdout)
        .verdict,
    ).toBe('ok');
    const empty = JSON.parse(runBin(['guard', vault, '--format', 'json'], { stdin: '  \n\t ' }).stdout);
    expect([empty.verdict, empty.reasons]).toEqual(['refuse', ['Content cannot be empty.']]);
  });
  it('USER.md is measured against its own budget', () => {
    const vault = store('a');
    const r = runBin(['guard', vault, '--path', 'USER.md', '--format', 'json'], { stdin: 'y'.repeat(1360) });
    expect(JSON.parse(r.stdout).reasons.join(' ')).toMatch(/USER\.md at 36\/1,375 chars/);
  });
  it('a hook Write of a whole store past its budget is denied', () => {
    // The hook guards Hermes' memory folder: $HOME/.hermes/memories under the fake HOME.
    const vault = join(HOME, '.hermes', 'memories');
    mkdirSync(vault, { recursive: true });
    writeFileSync(join(vault, 'MEMORY.md'), 'first entry');
    writeFileSync(join(vault, 'USER.md'), 'Name: Alice\n§\nPrefers short answers.');
    const a = answer(write(vault, `first entry\n§\n${'z'.repeat(2300)}`))!;
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toMatch(/MEMORY\.md would hold 2,314\/2,200 chars/);
    expect(readFileSync(join(vault, 'MEMORY.md'), 'utf8')).toBe('first entry');
  });
});

describe('a new note whose index line is past the cut', () => {
  it('asks, naming the line', () => {
    const vault = vaultWith(205);
    const a = answer(write(vault, fresh(), 'note-999.md'));
    expect(a).not.toBeNull();
    writeFileSync(join(vault, 'MEMORY.md'), `${indexOf(205)}- [Note 999](note-999.md) — fact number 999\n`);
    const b = answer(write(vault, fresh(), 'note-999.md'))!;
    expect(b.permissionDecision).toBe('ask');
    expect(b.permissionDecisionReason).toMatch(
      /index line for note-999.md \(line 206 .*\) is past what Claude Code loads \(200 of 206 lines\)/,
    );
  });
});
