import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './run.js';

/** A temporary vault of notes `note-1.md` … `note-n.md` (texts from `note`) and a MEMORY.md linking each. */
export function noteVault(n: number, note: (i: number) => string): string {
  const dir = tempDir();
  for (let i = 1; i <= n; i++) writeFileSync(join(dir, `note-${i}.md`), note(i));
  writeFileSync(
    join(dir, 'MEMORY.md'),
    `${Array.from({ length: n }, (_, k) => `- [N](note-${k + 1}.md)`).join('\n')}\n`,
  );
  return dir;
}
