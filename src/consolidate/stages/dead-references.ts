/**
 * References checked against the real filesystem, never guessed: what cannot be resolved with
 * certainty is skipped and counted by reason.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { delimiter, join, resolve, sep } from 'node:path';
import { extractReferences, type Reference } from '../references.js';
import { defineStage, type ItemDraft, type StageContext } from '../stage.js';

export type UncheckedReason =
  | 'no-root'
  | 'url'
  | 'glob'
  | 'placeholder'
  | 'outside-root'
  | 'home-path'
  | 'unanchored'
  | 'no-package-json'
  | 'no-makefile'
  | 'not-local-module'
  | 'relative-import'
  | 'no-node-modules'
  | 'builtin';

interface DeadCheck {
  readonly dead: boolean;
  readonly checked?: string;
  readonly skip?: UncheckedReason;
}

const isUrlish = (v: string): boolean =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(www\.)?[\w-]+\.(com|org|net|io|dev|ai|app|co|gov|edu)(\/|$)/i.test(v);
const isGlob = (v: string): boolean => /[*?[\]{}]/.test(v);
const isPlaceholder = (v: string): boolean => /<[^>]*>|\$\{?\w+|\.\.\.|…|\bxxx\b|\bfoo\b|\bbar\b|YYYY|MM-DD/i.test(v);

interface RootFacts {
  readonly scripts: ReadonlySet<string> | null;
  readonly makeTargets: ReadonlySet<string> | null;
  readonly nodeModules: boolean;
  readonly pathDirs: readonly string[];
}

function rootFacts(root: string, path: string): RootFacts {
  let scripts: Set<string> | null = null;
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    scripts = new Set(Object.keys(pkg.scripts ?? {}));
  } catch {
    /* no package.json: script references are skipped */
  }
  let makeTargets: Set<string> | null = null;
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    try {
      const text = readFileSync(join(root, name), 'utf8');
      makeTargets = new Set(
        [...text.matchAll(/^([A-Za-z_][\w.-]*(?:\s+[A-Za-z_][\w.-]*)*)\s*::?(?!=)/gm)].flatMap((m) =>
          m[1]!.split(/\s+/),
        ),
      );
      break;
    } catch {
      /* try the next name */
    }
  }
  return {
    scripts,
    makeTargets,
    nodeModules: existsSync(join(root, 'node_modules')),
    pathDirs: [...path.split(delimiter).filter(Boolean), join(root, 'node_modules', '.bin')],
  };
}

function checkPath(value: string, root: string, rootSource: string): DeadCheck {
  const v = value.replace(/[.,;:]+$/, '');
  if (isUrlish(v)) return { dead: false, skip: 'url' };
  if (isGlob(v)) return { dead: false, skip: 'glob' };
  if (isPlaceholder(v)) return { dead: false, skip: 'placeholder' };
  let abs: string;
  if (v.startsWith('~/')) {
    if (rootSource !== 'decoded') return { dead: false, skip: 'home-path' };
    abs = join(process.env.HOME ?? '~', v.slice(2));
  } else if (v.startsWith('/')) {
    if (!(v === root || v.startsWith(root + sep))) return { dead: false, skip: 'outside-root' };
    abs = v;
  } else {
    const rel = v.replace(/^\.\//, '');
    if (rel.startsWith('../')) return { dead: false, skip: 'outside-root' };
    // Only a path whose first folder exists at the root is a path of this project; `feature/x`
    // (a branch) or `owner/repo` is not.
    const first = rel.split('/')[0]!;
    if (!existsSync(join(root, first))) return { dead: false, skip: 'unanchored' };
    abs = resolve(root, rel);
  }
  return existsSync(abs) ? { dead: false, checked: abs } : { dead: true, checked: `no file or folder at ${abs}` };
}

function onPath(cmd: string, dirs: readonly string[]): boolean {
  for (const d of dirs) {
    try {
      if (statSync(join(d, cmd)).isFile()) return true;
    } catch {
      /* not here */
    }
  }
  return false;
}

function judge(ref: Reference, root: string, rootSource: string, facts: RootFacts): DeadCheck {
  switch (ref.kind) {
    case 'path':
      return checkPath(ref.value, root, rootSource);
    case 'script':
      if (!facts.scripts) return { dead: false, skip: 'no-package-json' };
      return facts.scripts.has(ref.value)
        ? { dead: false, checked: 'package.json scripts' }
        : {
            dead: true,
            checked: `no "${ref.value}" in package.json scripts (${[...facts.scripts].slice(0, 8).join(', ')})`,
          };
    case 'make-target':
      if (!facts.makeTargets) return { dead: false, skip: 'no-makefile' };
      return facts.makeTargets.has(ref.value)
        ? { dead: false, checked: 'Makefile targets' }
        : { dead: true, checked: `no target "${ref.value}" in the Makefile` };
    case 'command':
      return onPath(ref.value, facts.pathDirs)
        ? { dead: false, checked: 'PATH' }
        : { dead: true, checked: `"${ref.value}" is not on PATH or in node_modules/.bin` };
    case 'python-module': {
      const parts = ref.value.split('.');
      if (!existsSync(join(root, parts[0]!)) && !existsSync(join(root, `${parts[0]}.py`)))
        return { dead: false, skip: 'not-local-module' };
      const base = join(root, ...parts);
      const ok =
        existsSync(`${base}.py`) || existsSync(join(base, '__init__.py')) || existsSync(join(base, '__main__.py'));
      return ok
        ? { dead: false, checked: base }
        : { dead: true, checked: `no ${parts.join('/')}.py or ${parts.join('/')}/__init__.py under the root` };
    }
    case 'module': {
      const m = ref.value;
      if (m.startsWith('.') || m.startsWith('/')) return { dead: false, skip: 'relative-import' };
      if (m.startsWith('node:') || builtinModules.includes(m.split('/')[0]!)) return { dead: false, skip: 'builtin' };
      if (!facts.nodeModules) return { dead: false, skip: 'no-node-modules' };
      try {
        createRequire(join(root, 'package.json')).resolve(m);
        return { dead: false, checked: 'node resolution' };
      } catch {
        const pkgDir = join(
          root,
          'node_modules',
          ...(m.startsWith('@') ? m.split('/').slice(0, 2) : [m.split('/')[0]!]),
        );
        return existsSync(pkgDir)
          ? { dead: false, checked: pkgDir }
          : { dead: true, checked: `"${m}" does not resolve from ${root}` };
      }
    }
  }
}

export default defineStage({
  id: 'dead-references',
  description:
    'Paths, package scripts, make targets, commands, node modules and python modules a note names, checked against the project root.',
  run(ctx: StageContext) {
    const counts = { checked: 0, dead: 0, skipped: {} as Record<string, number> };
    ctx.summary.deadReferences = { root: ctx.root, rootSource: ctx.rootSource, ...counts };
    const skip = (reason: UncheckedReason): void => {
      counts.skipped[reason] = (counts.skipped[reason] ?? 0) + 1;
    };
    const facts = ctx.root ? rootFacts(ctx.root, ctx.path) : null;
    // One item per missing reference, listing every note that names it.
    const missing = new Map<
      string,
      { kind: string; reference: string; checked: string | undefined; via: Set<string>; notes: Map<string, number> }
    >();
    for (const note of ctx.notes) {
      const refs = extractReferences(note.text.slice(note.bodyOffset), note.bodyOffset);
      if (!ctx.root || !facts) {
        refs.forEach(() => skip('no-root'));
        continue;
      }
      const seen = new Set<string>();
      for (const ref of refs) {
        const key = `${ref.kind}:${ref.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const v = judge(ref, ctx.root, ctx.rootSource, facts);
        if (v.skip) {
          skip(v.skip);
          continue;
        }
        counts.checked++;
        if (v.dead) {
          counts.dead++;
          const m = missing.get(key) ?? {
            kind: ref.kind,
            reference: ref.value,
            checked: v.checked,
            via: new Set<string>(),
            notes: new Map<string, number>(),
          };
          if (ref.via) m.via.add(ref.via);
          if (!m.notes.has(note.path)) m.notes.set(note.path, note.position(ref.offset).line);
          missing.set(key, m);
        }
      }
    }
    const items: ItemDraft[] = [...missing.values()].map((m) => ({
      kind: 'dead-reference',
      paths: [...m.notes.keys()],
      evidence: {
        root: ctx.root,
        kind: m.kind,
        reference: m.reference,
        ...(m.via.size ? { via: [...m.via].sort() } : {}),
        checked: m.checked,
        mentionedIn: [...m.notes].map(([path, line]) => ({ note: path, line })),
      },
      suggestion: 'review',
      action: { type: 'keep' },
    }));
    ctx.summary.deadReferences = { root: ctx.root, rootSource: ctx.rootSource, ...counts };
    return items;
  },
});
