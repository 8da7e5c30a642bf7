import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CACHE_FILE } from '../src/guard/cache.js';
import { CLI, copyToTemp, runBin, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const note = (name: string, type: string, body: string): string =>
  `---\nname: ${name}\ndescription: about ${name}\ntype: ${type}\n---\n\n${body}\n`;
const guardJson = (vault: string, draft: string, extra: string[] = []) => {
  const r = runBin(['guard', vault, '--format', 'json', ...extra], { stdin: draft });
  return { code: r.code, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
};
const PNPM = readFileSync(join(DEMO, 'feedback_use-pnpm.md'), 'utf8');

describe('guard: drafts', () => {
  const vault = copyToTemp(DEMO);
  it('an exact copy under another name is refused, naming the note to update', () => {
    const r = guardJson(vault, PNPM.replace('name: use-pnpm', 'name: pnpm-again'), [
      '--path',
      'feedback_pnpm-again.md',
    ]);
    expect(r.code).toBe(1);
    expect(r.json.verdict).toBe('refuse');
    expect(r.json.matches[0]).toMatchObject({ path: 'feedback_use-pnpm.md', kind: 'near-duplicate', similarity: 1 });
    expect(r.json.reasons[0]).toMatch(/update that note instead/);
  });
  it.each([
    [
      'sentences reordered',
      (t: string) =>
        t.replace(
          'Always use pnpm to install and run scripts in this repository; never run npm install.',
          'Never run npm install. Always use pnpm to install and run scripts in this repository.',
        ),
    ],
    ['a word changed', (t: string) => t.replace('lockfile', 'lock file')],
    ['a line added', (t: string) => `${t}\nAlso noted in a later session.\n`],
  ])('a light edit (%s) is refused', (_label, edit) => {
    const r = guardJson(vault, edit(PNPM).replace('name: use-pnpm', 'name: pnpm-rule'), [
      '--path',
      'feedback_pnpm-rule.md',
    ]);
    expect(r.json.verdict).toBe('refuse');
    expect(r.json.matches[0].path).toBe('feedback_use-pnpm.md');
  });
  it('an update in place (same path, or same name) is not a duplicate of itself', () => {
    expect(guardJson(vault, `${PNPM}\nOne more line.\n`, ['--path', 'feedback_use-pnpm.md']).json.verdict).toBe('ok');
    expect(
      guardJson(vault, `${PNPM}\nOne more line.\n`, ['--path', 'feedback_elsewhere.md']).json.matches.filter(
        (m: { path: string }) => m.path === 'feedback_use-pnpm.md',
      ),
    ).toEqual([]);
  });
  it('a contradiction is shown as a warning with both sentences, not silently passed', () => {
    const r = guardJson(
      vault,
      note('vitest-too', 'feedback', 'The web package tests run on Jest only; use Jest for all unit tests.'),
      ['--path', 'feedback_jest.md'],
    );
    const c = r.json.matches.find((m: { kind: string }) => m.kind === 'contradiction');
    expect(c.path).toBe('project_test-stack.md');
    expect(c.conflict.note).toMatch(/replaced Jest with Vitest/);
    expect(c.ageDays).toBeGreaterThan(20);
    expect(c.origin).toBe('5b1e0c2a-7d3f-4c1e-9a52-0f6d1e2b3c4d');
  });
  it('an unrelated note passes', () => {
    const r = guardJson(
      vault,
      note('coffee', 'user', 'The user takes a coffee break at ten and prefers meetings after lunch.'),
      ['--path', 'user_coffee.md'],
    );
    // The demo index is past its cut already: a new note asks only because its index line cannot fit (issue 18).
    expect(r.json).toMatchObject({
      verdict: 'ask',
      matches: [],
      reasons: [expect.stringMatching(/has no room for this note's line/)],
    });
  });
  it('a draft in Chinese is compared by character bigrams', () => {
    const zh = copyToTemp(join('fixtures', 'consolidate', 'near-duplicates', 'chinese', 'vault'));
    const draft = readFileSync(join(zh, 'feedback_迁移.md'), 'utf8').replace('name: 迁移', 'name: 迁移新');
    const r = guardJson(zh, draft, ['--path', 'feedback_迁移新.md']);
    expect(r.json.verdict).toBe('refuse');
    expect(r.json.matches.map((m: { path: string }) => m.path)).toContain('feedback_迁移.md');
  });
  it('hidden characters or a credential in the draft are refused with the reason', () => {
    const r1 = guardJson(vault, note('zw', 'user', 'Deploy\u200B on Fridays.'), ['--path', 'user_zw.md']);
    expect(r1.json.reasons.join()).toMatch(/security\/invisible-unicode/);
    const r2 = guardJson(vault, note('tok', 'user', 'token sk_live_4eC39HqLyjWDarjtT1zdp7dc'), [
      '--path',
      'user_tok.md',
    ]);
    expect(r2.json.reasons.join()).toMatch(/security\/secret: Stripe key/);
    expect(JSON.stringify(r2.json)).not.toContain('4eC39HqLyjWDarjtT1zdp7dc');
  });
  it('the threshold is configurable', () => {
    const v = copyToTemp(DEMO);
    writeFileSync(join(v, 'memlint.config.json'), JSON.stringify({ guard: { refuse: 1 } }));
    const r = guardJson(v, PNPM.replace('lockfile', 'lock file').replace('name: use-pnpm', 'name: other'), [
      '--path',
      'other.md',
    ]);
    expect(r.json.verdict).toBe('ask'); // not refused; asks only for the index room (issue 18)
    expect(r.json.reasons).toEqual([expect.stringMatching(/has no room for this note's line/)]);
    expect(r.json.matches[0].kind).toBe('near-duplicate');
  });
});

describe('guard: the signature cache', () => {
  it('a note edited between two runs is seen; a corrupt cache is rebuilt and the answer is still right', () => {
    const vault = copyToTemp(DEMO);
    const draft = note('gc', 'feedback', 'Garbage collect the build cache every Monday with the cleanup script.');
    expect(guardJson(vault, draft, ['--path', 'gc.md']).json.verdict).toBe('ask'); // index room only (issue 18)
    expect(readFileSync(join(vault, CACHE_FILE)).length).toBeGreaterThan(100);
    // Another note now says the same thing: the cache entry for it no longer matches the file.
    writeFileSync(
      join(vault, 'reference_api.md'),
      note('api', 'reference', 'Garbage collect the build cache every Monday with the cleanup script.'),
    );
    const seen = guardJson(vault, draft, ['--path', 'gc.md']);
    expect(seen.json.verdict).toBe('refuse');
    expect(seen.json.matches[0].path).toBe('reference_api.md');
    writeFileSync(join(vault, CACHE_FILE), 'garbage that is not a cache');
    const rebuilt = guardJson(vault, draft, ['--path', 'gc.md']);
    expect(rebuilt.json.verdict).toBe('refuse');
    expect(readFileSync(join(vault, CACHE_FILE)).subarray(4, 40).toString()).toContain('memlint-guard-cache');
  });
});

describe('guard --claude-hook (PreToolUse)', () => {
  // The hook guards Claude Code's memory folders: the demo vault as a project's auto memory under a fake HOME.
  const home = tempDir();
  const vault = join(home, '.claude', 'projects', '-work-demo', 'memory');
  cpSync(DEMO, vault, { recursive: true });
  const hook = (payload: unknown, args: string[] = []) =>
    runBin(['guard', '--claude-hook', ...args], { stdin: JSON.stringify(payload), env: { HOME: home } });
  const copyBody = PNPM.replace('name: use-pnpm', 'name: pnpm-dup');
  it('Write of a duplicate note inside the memory folder is denied with the reason', () => {
    const r = hook({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(vault, 'feedback_pnpm-dup.md'), content: copyBody },
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(/feedback_use-pnpm.md/);
  });
  it('Edit builds the edited file (an update in place passes)', () => {
    const r = hook({
      tool_name: 'Edit',
      tool_input: {
        file_path: join(vault, 'feedback_use-pnpm.md'),
        old_string: 'lockfile',
        new_string: 'lock file',
        replace_all: true,
      },
    });
    expect([r.code, r.stdout]).toEqual([0, '']);
  });
  it('Edit that makes another note a duplicate is denied', () => {
    const target = join(vault, 'reference_api.md');
    const current = readFileSync(target, 'utf8');
    const r = hook({
      tool_name: 'Edit',
      tool_input: {
        file_path: target,
        old_string: current.slice(current.indexOf('Endpoints')),
        new_string: copyBody.slice(copyBody.indexOf('Always')),
      },
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  it('MultiEdit applies every edit in order before checking', () => {
    const target = join(vault, 'user_role.md');
    const r = hook({
      tool_name: 'MultiEdit',
      tool_input: {
        file_path: target,
        edits: [
          {
            old_string: 'The user is the release manager',
            new_string: 'Token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
          },
          { old_string: 'reviews every deploy', new_string: 'reviews deploys' },
        ],
      },
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/security\/secret/);
  });
  it('a contradiction asks the person', () => {
    const r = hook({
      tool_name: 'Write',
      tool_input: {
        file_path: join(vault, 'feedback_jest.md'),
        content: note('jest', 'feedback', 'The web package tests run on Jest only; use Jest for all unit tests.'),
      },
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });
  it('files outside a memory folder, other tools and non-markdown pass through at once', () => {
    const outside = tempDir();
    mkdirSync(join(outside, 'src'));
    for (const payload of [
      { tool_name: 'Write', tool_input: { file_path: join(outside, 'src', 'notes.md'), content: copyBody } },
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { tool_name: 'Write', tool_input: { file_path: join(vault, 'data.json'), content: '{}' } },
    ]) {
      expect(hook(payload)).toMatchObject({ code: 0, stdout: '' });
    }
  });
  it('only the given vaults count when vaults are named', () => {
    const r = hook(
      { tool_name: 'Write', tool_input: { file_path: join(vault, 'feedback_pnpm-dup.md'), content: copyBody } },
      [tempDir()],
    );
    expect(r.stdout).toBe('');
  });
  it('a malformed payload does not block the write', () => {
    const r = runBin(['guard', '--claude-hook'], { stdin: 'not json' });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toMatch(/cannot read the hook input/);
  });
});

describe('memlint mcp', () => {
  it('answers a real MCP client over stdio with the guard and a read-only check', async () => {
    const vault = copyToTemp(DEMO);
    const client = new Client({ name: 'memlint-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', vault], stderr: 'pipe' }),
    );
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['check_memory_draft', 'check_vault']);
      const draft = await client.callTool({
        name: 'check_memory_draft',
        arguments: { draft: PNPM.replace('name: use-pnpm', 'name: via-mcp'), path: 'feedback_via-mcp.md' },
      });
      const verdict = JSON.parse((draft.content as { text: string }[])[0]!.text);
      expect(verdict.verdict).toBe('refuse');
      const check = await client.callTool({ name: 'check_vault', arguments: {} });
      const report = JSON.parse((check.content as { text: string }[])[0]!.text);
      expect(report.tool).toBe('memlint');
      expect(report.summary.notes).toBe(15);
      // Tools say they only read; check_vault reads only the vaults the server was started with.
      for (const t of tools.tools) expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      for (const other of ['/etc', tempDir()]) {
        const refused = await client.callTool({ name: 'check_vault', arguments: { vault: other } });
        expect(refused.isError).toBe(true);
        expect((refused.content as { text: string }[])[0]!.text).toMatch(/is not a vault this server was started with/);
      }
      const refusedDraft = await client.callTool({
        name: 'check_memory_draft',
        arguments: { draft: 'x', vault: '/etc' },
      });
      expect(refusedDraft.isError).toBe(true);
      const same = await client.callTool({ name: 'check_vault', arguments: { vault } });
      expect(same.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // Nothing it exposes writes: not even the guard cache.
    expect(() => readFileSync(join(vault, CACHE_FILE))).toThrow();
  });
});
