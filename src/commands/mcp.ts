/** `memlint mcp`: an MCP server over stdio with two read-only tools. Nothing it exposes can write. */
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { checkVault, toJsonReport } from '../check.js';
import { loadConfig } from '../config/load.js';
import { guardDraft } from '../guard/run.js';
import type { IO } from '../io.js';
import { parseCommandArgs } from '../util/args.js';
import { VERSION } from '../version.js';

export async function run(args: string[], io: IO): Promise<number> {
  const { positionals } = parseCommandArgs('mcp', args, {});
  const defaultVault = positionals[0] ? resolve(io.cwd, positionals[0]) : undefined;
  const server = new McpServer({ name: 'memlint', version: VERSION });
  const vaultOf = (v: string | undefined): string => {
    const dir = v ? resolve(io.cwd, v) : defaultVault;
    if (!dir) throw new Error('no vault: pass `vault`, or start the server as `memlint mcp VAULT`');
    return dir;
  };
  server.registerTool('check_memory_draft', {
    description: 'Before saving a memory note: lists existing notes it duplicates or contradicts (with age and origin) and runs the schema and security checks. verdict "refuse" means: update the named note instead, or fix the draft; "ask" means: a contradiction or a security warning, confirm with the user before saving.',
    inputSchema: { draft: z.string().describe('The full note text, front matter included'), path: z.string().optional().describe('Where it would be written, relative to the vault'), vault: z.string().optional().describe('The memory folder') },
  }, async ({ draft, path, vault }) => {
    const root = vaultOf(vault);
    const { config } = await loadConfig(root);
    const r = guardDraft(root, config, draft, { cache: 'read-only', ...(path ? { targetPath: path } : {}) });
    return { content: [{ type: 'text', text: JSON.stringify({ verdict: r.verdict, reasons: r.reasons, matches: r.matches, problems: r.problems }, null, 2) }] };
  });
  server.registerTool('check_vault', {
    description: 'Read-only health check of a memory folder: index budget, orphans, links, front matter, security. Same JSON as `memlint check --format json`.',
    inputSchema: { vault: z.string().optional().describe('The memory folder') },
  }, async ({ vault }) => {
    const r = await checkVault(vaultOf(vault));
    return { content: [{ type: 'text', text: JSON.stringify(toJsonReport(r), null, 2) }] };
  });
  await server.connect(new StdioServerTransport());
  await new Promise<void>((done) => process.stdin.on('close', done));
  return 0;
}
