import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const FIXTURES = join(process.cwd(), 'fixtures');
/** Folders under fixtures/ that are not rule groups. */
const NOT_RULES = new Set(['demo-vault', 'demo-project', 'consolidate']);

export interface FixtureCase {
  readonly ruleId: string;
  readonly name: string;
  readonly dir: string;
  readonly vault: string;
  readonly config: unknown;
  readonly expectedFile: string;
}

/** fixtures/<group>/<rule>/<case>/vault + expected.json (+ optional config.json). */
export function fixtureCases(): FixtureCase[] {
  const out: FixtureCase[] = [];
  for (const group of readdirSync(FIXTURES).sort()) {
    const gdir = join(FIXTURES, group);
    if (!statSync(gdir).isDirectory() || NOT_RULES.has(group)) continue;
    for (const rule of readdirSync(gdir).sort()) {
      const rdir = join(gdir, rule);
      if (!statSync(rdir).isDirectory()) continue;
      for (const name of readdirSync(rdir).sort()) {
        const dir = join(rdir, name);
        if (!existsSync(join(dir, 'vault'))) continue;
        const configFile = join(dir, 'config.json');
        out.push({
          ruleId: relative(FIXTURES, rdir).split('\\').join('/'),
          name,
          dir,
          vault: join(dir, 'vault'),
          config: existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {},
          expectedFile: join(dir, 'expected.json'),
        });
      }
    }
  }
  return out;
}
