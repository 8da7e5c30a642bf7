import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { runBin } from './run.js';

/** consolidate a vault into a proposal file next to it and return its path. */
export function proposeInto(vault: string, out: string, env: Record<string, string> = {}): string {
  const r = runBin(['consolidate', vault, '--out', out], { env });
  if (r.code !== 0) throw new Error(r.stderr);
  return out;
}

/** Edits a proposal like a person would: through the YAML document, comments kept. */
export function editProposal(file: string, edit: (items: any[]) => void): void {
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const js = doc.toJS() as { items: any[] };
  edit(js.items);
  doc.set('items', doc.createNode(js.items));
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

export const approveAll = (file: string): void =>
  editProposal(file, (items) =>
    items.forEach((i) => {
      i.decision = 'approve';
    }),
  );
