/** SARIF 2.1.0, for code-scanning upload. Paths are relative to the vault (uriBaseId VAULT). */
import { pathToFileURL } from 'node:url';
import { RULES } from '../rules/index.js';
import { VERSION } from '../version.js';
import type { Reporter } from './types.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;
const encodePath = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

export const sarif: Reporter = (result) => {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i] as const));
  const extraRules: string[] = [];
  for (const f of result.findings)
    if (!ruleIndex.has(f.ruleId) && !extraRules.includes(f.ruleId)) extraRules.push(f.ruleId);
  extraRules.forEach((id, i) => ruleIndex.set(id, RULES.length + i));
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'memlint',
            version: VERSION,
            informationUri: 'https://www.npmjs.com/package/memlint',
            rules: [
              ...RULES.map((r) => ({
                id: r.id,
                shortDescription: { text: r.meta.description },
                fullDescription: { text: r.meta.docs.why },
                help: { text: r.meta.docs.fix },
                defaultConfiguration: { level: LEVEL[r.meta.severity] },
              })),
              ...extraRules.map((id) => ({ id, shortDescription: { text: id } })),
            ],
          },
        },
        originalUriBaseIds: { VAULT: { uri: `${pathToFileURL(result.vault.root).href}/` } },
        results: result.findings.map((f) => ({
          ruleId: f.ruleId,
          ruleIndex: ruleIndex.get(f.ruleId),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodePath(f.file), uriBaseId: 'VAULT' },
                region: {
                  startLine: f.line,
                  startColumn: f.column,
                  ...(f.endLine !== undefined ? { endLine: f.endLine, endColumn: f.endColumn } : {}),
                },
              },
            },
          ],
          ...(f.related
            ? {
                relatedLocations: f.related.map((r, i) => ({
                  id: i,
                  message: { text: r.message },
                  physicalLocation: {
                    artifactLocation: { uri: encodePath(r.file), uriBaseId: 'VAULT' },
                    region: { startLine: r.line, startColumn: r.column },
                  },
                })),
              }
            : {}),
        })),
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
};
