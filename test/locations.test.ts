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
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/notes/claude-memory' }));
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
    const found = findMemoryFolders({ cwd: project, env: { HOME: home, HERMES_HOME: hermesHome, CLAUDE_CONFIG_DIR: configDir } });
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
    expect(memoryFolderFor(join(home, '.claude', 'projects', 'x', 'memory', 'a.md'), ctx)).toBe(join(home, '.claude', 'projects', 'x', 'memory'));
    expect(memoryFolderFor(join(home, '.claude', 'projects', 'x', 'notes.md'), ctx)).toBeNull();
    expect(memoryFolderFor(join(project, '.claude', 'agent-memory-local', 'scratch', 'sub', 'n.md'), ctx)).toBe(join(project, '.claude', 'agent-memory-local', 'scratch'));
    expect(memoryFolderFor(join(home, '.claude', 'agent-memory', 'reviewer', 'n.md'), ctx)).toBe(join(home, '.claude', 'agent-memory', 'reviewer'));
    expect(memoryFolderFor(join(custom, 'n.md'), ctx)).toBe(custom);
    expect(memoryFolderFor(join(home, '.hermes', 'memories', 'MEMORY.md'), ctx)).toBe(join(home, '.hermes', 'memories'));
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
      stdin: JSON.stringify({ tool_name: 'Write', cwd: project, tool_input: { file_path: join(project, 'docs', 'guide', 'CONTRIBUTING.md'), content: 'x' } }),
    });
    expect([r.code, r.stdout]).toEqual([0, '']);
    const r2 = runBin(['guard', '--claude-hook'], {
      env: { HOME: home },
      stdin: JSON.stringify({ tool_name: 'Write', cwd: project, tool_input: { file_path: join(project, `copy-of-${dup}`), content: readFileSync(join(project, dup), 'utf8').replace(/^name: .*$/m, 'name: a-copy') } }),
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
      stdin: JSON.stringify({ tool_name: 'Write', cwd: project, tool_input: { file_path: join(dir, 'feedback_pnpm-again.md'), content: body } }),
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
