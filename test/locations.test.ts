import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMemoryFolders, memoryFolderFor } from '../src/vault/locations.js';
import { runBin, tempDir } from './helpers/run.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');

/** A fake HOME with every kind of memory folder, and a project with subagent memory. */
function fakeMachine(): { home: string; project: string; custom: string } {
  const home = tempDir();
  const project = join(home, 'work', 'app');
  const custom = join(home, 'notes', 'claude-memory');
  cpSync(DEMO, join(home, '.claude', 'projects', '-home-u-work-app', 'memory'), { recursive: true });
  mkdirSync(join(home, '.claude', 'projects', '-home-u-no-memory-yet'), { recursive: true }); // a project without memory
  cpSync(DEMO, join(home, '.claude', 'agent-memory', 'reviewer'), { recursive: true });
  cpSync(DEMO, join(project, '.claude', 'agent-memory', 'planner'), { recursive: true });
  cpSync(DEMO, join(project, '.claude', 'agent-memory-local', 'scratch'), { recursive: true });
  cpSync(DEMO, custom, { recursive: true });
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({ autoMemoryDirectory: '~/notes/claude-memory' }),
  );
  mkdirSync(join(home, '.hermes', 'memories'), { recursive: true });
  writeFileSync(join(home, '.hermes', 'memories', 'MEMORY.md'), 'Use pnpm.\n§\nDeploys on Fridays are frozen.\n');
  writeFileSync(join(home, '.hermes', 'memories', 'USER.md'), 'The user is the release manager.\n');
  return { home, project, custom };
}

describe('memory locations', () => {
  it('finds every memory folder of the user: auto memory, autoMemoryDirectory, subagent memory, Hermes', () => {
    const { home, project, custom } = fakeMachine();
    const found = findMemoryFolders({ cwd: project, env: { HOME: home } });
    expect(found.map((l) => [l.source, l.dir])).toEqual([
      ['claude-auto-memory-directory', custom],
      ['claude-project', join(home, '.claude', 'projects', '-home-u-work-app', 'memory')],
      ['claude-agent-user', join(home, '.claude', 'agent-memory', 'reviewer')],
      ['claude-agent-project', join(project, '.claude', 'agent-memory', 'planner')],
      ['claude-agent-local', join(project, '.claude', 'agent-memory-local', 'scratch')],
      ['hermes', join(home, '.hermes', 'memories')],
    ]);
  });

  it('honours $HERMES_HOME, $CLAUDE_CONFIG_DIR, and ignores autoMemoryDirectory from the committed project settings', () => {
    const { home, project } = fakeMachine();
    const hermesHome = tempDir();
    mkdirSync(join(hermesHome, 'memories'));
    const configDir = tempDir();
    cpSync(DEMO, join(configDir, 'projects', 'p', 'memory'), { recursive: true });
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '/etc' }));
    const found = findMemoryFolders({
      cwd: project,
      env: { HOME: home, HERMES_HOME: hermesHome, CLAUDE_CONFIG_DIR: configDir },
    });
    expect(found.map((l) => l.dir)).toContain(join(hermesHome, 'memories'));
    expect(found.map((l) => l.dir)).toContain(join(configDir, 'projects', 'p', 'memory'));
    expect(found.map((l) => l.dir)).not.toContain('/etc');
    expect(found.map((l) => l.dir)).not.toContain(join(home, '.hermes', 'memories'));
  });

  it('says which memory folder a file is in, and null for a project file beside a MEMORY.md', () => {
    const { home, project, custom } = fakeMachine();
    const ctx = { cwd: project, env: { HOME: home } };
    writeFileSync(join(project, 'MEMORY.md'), '# not agent memory\n');
    expect(memoryFolderFor(join(project, 'docs', 'guide', 'CONTRIBUTING.md'), ctx)).toBeNull();
    expect(memoryFolderFor(join(project, 'notes.md'), ctx)).toBeNull();
    expect(memoryFolderFor(join(home, '.claude', 'projects', 'x', 'memory', 'a.md'), ctx)).toBe(
      join(home, '.claude', 'projects', 'x', 'memory'),
    );
    expect(memoryFolderFor(join(home, '.claude', 'projects', 'x', 'notes.md'), ctx)).toBeNull();
    expect(memoryFolderFor(join(project, '.claude', 'agent-memory-local', 'scratch', 'sub', 'n.md'), ctx)).toBe(
      join(project, '.claude', 'agent-memory-local', 'scratch'),
    );
    expect(memoryFolderFor(join(home, '.claude', 'agent-memory', 'reviewer', 'n.md'), ctx)).toBe(
      join(home, '.claude', 'agent-memory', 'reviewer'),
    );
    expect(memoryFolderFor(join(custom, 'n.md'), ctx)).toBe(custom);
    expect(memoryFolderFor(join(home, '.hermes', 'memories', 'MEMORY.md'), ctx)).toBe(
      join(home, '.hermes', 'memories'),
    );
    expect(memoryFolderFor(join(project, 'notes.md'), ctx, [project])).toBe(project);
  });
});

describe('the Claude Code hook guards only memory folders', () => {
  it('a CONTRIBUTING.md in a project with a root MEMORY.md is not guarded, and no .memlint is created there', () => {
    const { home } = fakeMachine();
    const project = tempDir();
    cpSync(DEMO, project, { recursive: true }); // a project whose root holds a MEMORY.md
    const dup = readdirSync(project).find((f) => f.startsWith('feedback_'))!;
    const r = runBin(['guard', '--claude-hook'], {
      env: { HOME: home },
      stdin: JSON.stringify({
        tool_name: 'Write',
        cwd: project,
        tool_input: { file_path: join(project, 'docs', 'guide', 'CONTRIBUTING.md'), content: 'x' },
      }),
    });
    expect([r.code, r.stdout]).toEqual([0, '']);
    const r2 = runBin(['guard', '--claude-hook'], {
      env: { HOME: home },
      stdin: JSON.stringify({
        tool_name: 'Write',
        cwd: project,
        tool_input: {
          file_path: join(project, `copy-of-${dup}`),
          content: readFileSync(join(project, dup), 'utf8').replace(/^name: .*$/m, 'name: a-copy'),
        },
      }),
    });
    expect([r2.code, r2.stdout]).toEqual([0, '']);
    expect(existsSync(join(project, '.memlint'))).toBe(false);
  });

  it('a duplicate written into subagent memory is denied', () => {
    const { home, project } = fakeMachine();
    const dir = join(project, '.claude', 'agent-memory', 'planner');
    const dup = readdirSync(dir).find((f) => f.startsWith('feedback_use-pnpm'))!;
    const body = readFileSync(join(dir, dup), 'utf8').replace('name: use-pnpm', 'name: pnpm-again');
    const r = runBin(['guard', '--claude-hook'], {
      env: { HOME: home },
      stdin: JSON.stringify({
        tool_name: 'Write',
        cwd: project,
        tool_input: { file_path: join(dir, 'feedback_pnpm-again.md'), content: body },
      }),
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('check and consolidate over several vaults', () => {
  it('a folder holding several vaults is checked vault by vault, with a summary table', () => {
    const parent = tempDir();
    cpSync(DEMO, join(parent, 'one'), { recursive: true });
    cpSync(join(process.cwd(), 'fixtures', 'note', 'orphan', 'reachable-through-notes', 'vault'), join(parent, 'two'), {
      recursive: true,
    });
    mkdirSync(join(parent, 'hermes'));
    writeFileSync(join(parent, 'hermes', 'MEMORY.md'), 'Use pnpm.\n§\nDeploys on Fridays are frozen.\n');
    const r = runBin(['check', parent]);
    expect(r.stdout).toMatch(/^── hermes\n/m);
    expect(r.stdout).toMatch(/^── one\n/m);
    expect(r.stdout).toMatch(/^vault +kind +notes +errors +warnings +infos$/m);
    expect(r.stdout).toMatch(/^two +claude +3 +0 +0 +0$/m);
    expect(r.stdout).not.toMatch(/MEMORY\.md is not reachable|one\/MEMORY\.md/); // no child index reported as a note
    expect(r.stdout).toMatch(/3 vaults \(\d with errors\)/);
    const json = JSON.parse(runBin(['check', parent, '--format', 'json']).stdout) as {
      summary: { vaults: number };
      vaults: { label: string; kind: string; vault: string }[];
    };
    expect(json.summary.vaults).toBe(3);
    expect(json.vaults.map((v) => [v.label, v.kind])).toEqual([
      ['hermes', 'hermes'],
      ['one', 'claude'],
      ['two', 'claude'],
    ]);
    expect(r.code).toBe(1);
  });

  it('check --all reports each memory folder of the user (fake HOME) with a summary', () => {
    const { home, project } = fakeMachine();
    const r = runBin(['check', '--all', '--format', 'json'], { cwd: project, env: { HOME: home } });
    const json = JSON.parse(r.stdout) as { summary: { vaults: number }; vaults: { label: string; kind: string }[] };
    expect(json.vaults.map((v) => v.label)).toEqual([
      '~/notes/claude-memory',
      '~/.claude/projects/-home-u-work-app/memory',
      '~/.claude/agent-memory/reviewer',
      '~/work/app/.claude/agent-memory/planner',
      '~/work/app/.claude/agent-memory-local/scratch',
      '~/.hermes/memories',
    ]);
    expect(json.vaults.at(-1)!.kind).toBe('hermes');
    const pretty = runBin(['check', '--all'], { cwd: project, env: { HOME: home } });
    expect(pretty.stdout).toMatch(/✖ 6 vaults/);
    const none = runBin(['check', '--all'], { cwd: tempDir(), env: { HOME: tempDir() } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^memlint: check --all: no memory folder found/);
  });

  it('consolidate --all writes one proposal per vault and changes no note', () => {
    const { home, project } = fakeMachine();
    const before = readFileSync(join(home, '.claude', 'agent-memory', 'reviewer', 'MEMORY.md'));
    const r = runBin(['consolidate', '--all'], { cwd: project, env: { HOME: home } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^vault +items +proposal$/);
    expect(lines).toHaveLength(7);
    for (const line of lines.slice(1)) expect(existsSync(line.split(/ +/).at(-1)!)).toBe(true);
    expect(readFileSync(join(home, '.claude', 'agent-memory', 'reviewer', 'MEMORY.md')).equals(before)).toBe(true);
  });
});
