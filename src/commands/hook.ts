/** `memlint hook install`: a git pre-commit hook that runs check when memory files are staged. */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { cliPath } from '../util/package-root.js';
import type { IO } from '../io.js';
import { parseCommandArgs } from '../util/args.js';
import { writeFileAtomic } from '../util/atomic.js';
import { UsageError, VaultError } from '../util/errors.js';
import { runGit } from '../util/git.js';

export const HOOK_MARKER = '# memlint pre-commit hook';

const git = (cwd: string, args: string[]): string => runGit(cwd, args).trim();

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function hookScript(vaultFromRepo: string, cliPath: string): string {
  return [
    '#!/bin/sh',
    `${HOOK_MARKER} (installed by \`memlint hook install\`; remove this file to uninstall)`,
    `vault=${shellQuote(vaultFromRepo)}`,
    'git diff --cached --name-only --diff-filter=ACMRD -- "$vault" | grep -q . || exit 0',
    'if command -v memlint >/dev/null 2>&1; then',
    '  exec memlint check "$vault" --staged',
    'fi',
    `exec node ${shellQuote(cliPath)} check "$vault" --staged`,
    '',
  ].join('\n');
}

export function huskySnippet(vaultFromRepo: string): string {
  return [
    'This repository uses husky: add this line to .husky/pre-commit instead:',
    '',
    `  git diff --cached --name-only -- ${shellQuote(vaultFromRepo)} | grep -q . && npx --no-install memlint check ${shellQuote(vaultFromRepo)} --staged`,
    '',
    'or, with lint-staged, in package.json:',
    '',
    `  "lint-staged": { "${vaultFromRepo === '.' ? '' : `${vaultFromRepo}/`}**/*.md": "memlint check --staged ${vaultFromRepo}" }`,
    '',
  ].join('\n');
}

export async function run(args: string[], io: IO): Promise<number> {
  const { values, positionals } = parseCommandArgs('hook', args, { force: { type: 'boolean' } }, 2);
  if (positionals[0] !== 'install')
    throw new UsageError("hook: the only subcommand is 'install' (memlint hook install [VAULT])");
  const vault = resolve(io.cwd, positionals[1] ?? '.');
  if (!existsSync(vault)) throw new VaultError(`cannot read vault ${vault}: no such folder`);
  let top: string;
  let hooksDir: string;
  try {
    top = git(vault, ['rev-parse', '--show-toplevel']);
    const configured = (() => {
      try {
        return git(vault, ['config', '--get', 'core.hooksPath']);
      } catch {
        return '';
      }
    })();
    hooksDir = configured
      ? isAbsolute(configured)
        ? configured
        : join(top, configured)
      : resolve(vault, git(vault, ['rev-parse', '--git-path', 'hooks']));
  } catch {
    throw new VaultError(`hook: ${vault} is not inside a git repository`);
  }
  const vaultFromRepo = relative(top, vault).split(sep).join('/') || '.';
  const usesHusky = existsSync(join(top, '.husky')) || hooksDir.split(sep).includes('.husky');
  if (usesHusky && !values.force) {
    io.stdout.write(huskySnippet(vaultFromRepo));
    return 0;
  }
  const hookFile = join(hooksDir, 'pre-commit');
  if (existsSync(hookFile)) {
    const current = readFileSync(hookFile, 'utf8');
    if (!current.includes(HOOK_MARKER) && !values.force) {
      throw new UsageError(
        `hook: ${hookFile} already exists and is not memlint's; add \`memlint check ${vaultFromRepo}\` to it yourself, or pass --force to replace it (a copy is kept as pre-commit.memlint-backup)`,
      );
    }
    if (!current.includes(HOOK_MARKER)) writeFileAtomic(`${hookFile}.memlint-backup`, current);
  }
  mkdirSync(hooksDir, { recursive: true });
  writeFileAtomic(hookFile, hookScript(vaultFromRepo, cliPath()), 0o755);
  io.stdout.write(
    `installed ${relative(io.cwd, hookFile) || hookFile}: runs memlint check ${vaultFromRepo} when files under it are staged\n`,
  );
  return 0;
}
