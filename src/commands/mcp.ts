/** `memlint mcp`: an MCP server over stdio with two read-only tools. Nothing it exposes can write. */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { checkVault, toJsonReport } from '../check.js';
import { loadConfig } from '../config/load.js';
import { knownRuleIds } from '../rules/ids.js';
import { guardDraft } from '../guard/guard.js';
import type { IO } from '../io.js';
import { parseCommandArgs } from '../util/args.js';
import { findMemoryFolders } from '../vault/locations.js';
import { VERSION } from '../version.js';

/** Both tools only read (MCP tool annotations: hints a client shows its user). */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

export async function run(args: string[], io: IO): Promise<number> {
  const { positionals } = parseCommandArgs('mcp', args, {}, 16);
  // The vaults this server may read: those it was started with, else the user's memory folders.
  const allowed = positionals.length
    ? positionals.map((p) => resolve(io.cwd, p))
    : findMemoryFolders({ cwd: io.cwd, env: io.env }).map((l) => l.dir);
  const allowedReal = new Set(allowed.map(real));
  const server = new McpServer({ name: 'memlint', version: VERSION });
  const vaultOf = (v: string | undefined): string => {
    if (!v) {
      if (allowed.length === 1) return allowed[0]!;
      throw new Error(
        allowed.length
          ? `several vaults are served; pass \`vault\`, one of: ${allowed.join(', ')}`
          : 'no vault: start the server as `memlint mcp VAULT`',
      );
    }
    const dir = resolve(io.cwd, v);
    if (!allowedReal.has(real(dir)))
      throw new Error(`${dir} is not a vault this server was started with (${allowed.join(', ') || 'none'})`);
    return dir;
  };
  const failure = (e: unknown) => ({
    isError: true,
    content: [{ type: 'text' as const, text: `memlint: ${(e as Error).message}` }],
  });
  server.registerTool(
    'check_memory_draft',
    {
      description:
        'Before saving a memory note: lists existing notes it duplicates or contradicts (with age and origin) and runs the schema and security checks. verdict "refuse" means: update the named note instead, or fix the draft; "ask" means: a contradiction or a security warning, confirm with the user before saving.',
      inputSchema: {
        draft: z.string().describe('The full note text, front matter included'),
        path: z.string().optional().describe('Where it would be written, relative to the vault'),
        vault: z.string().optional().describe('The memory folder (one the server was started with)'),
      },
      annotations: { title: 'Check a memory draft', ...READ_ONLY },
    },
    async ({ draft, path, vault }) => {
      try {
        const root = vaultOf(vault);
        const { config } = await loadConfig(root, undefined, knownRuleIds);
        const r = guardDraft(root, config, draft, { cache: 'read-only', ...(path ? { targetPath: path } : {}) });
        return {
          content: [
            {
              type: 'text',
              text: JSON.stringify(
                {
                  verdict: r.verdict,
                  reasons: r.reasons,
                  matches: r.matches,
                  problems: r.problems,
                  ...(r.index ? { index: r.index } : {}),
                },
                null,
                2,
              ),
            },
          ],
        };
      } catch (e) {
        return failure(e);
      }
    },
  );
  server.registerTool(
    'check_vault',
    {
      description:
        'Read-only health check of a memory folder the server was started with: index budget, orphans, links, front matter, security. Same JSON as `memlint check --format json`.',
      inputSchema: { vault: z.string().optional().describe('The memory folder (one the server was started with)') },
      annotations: { title: 'Check a memory vault', ...READ_ONLY },
    },
    async ({ vault }) => {
      try {
        const r = await checkVault(vaultOf(vault));
        return { content: [{ type: 'text', text: JSON.stringify(toJsonReport(r), null, 2) }] };
      } catch (e) {
        return failure(e);
      }
    },
  );
  await server.connect(new StdioServerTransport());
  await new Promise<void>((done) => process.stdin.on('close', done));
  return 0;
}
