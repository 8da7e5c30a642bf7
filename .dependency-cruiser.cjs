// The layers of src/, enforced (`npm run deps`, part of `npm run lint`). See ARCHITECTURE.md.
// A module may import its own layer or a lower one, never a higher one; no import cycles (type-only imports count).
// The layers are encoded as the code is; EXCEPTIONS below lists imports that break them (none today) and
// CYCLE_EXCEPTIONS known cycles (none today), each with its reason. Do not add to those lists: move the code instead.
'use strict';

/** Lowest first. A path regex per layer (dependency-cruiser paths are relative to the repo, e.g. src/vault/load.ts). */
const LAYERS = [
  ['base', '^src/(util/|version\\.ts$|io\\.ts$)'],
  ['vault', '^src/(vault|config)/'],
  ['similarity', '^src/similarity/'],
  ['rules', '^src/(rules|cache|proposal|catalog)/'],
  ['pipelines', '^src/(consolidate|guard|review|check\\.ts$)'],
  ['writer-and-output', '^src/(apply|html-report|check-formats)/'],
  ['commands', '^src/(commands/|api\\.ts$|main\\.ts$|cli\\.ts$|index\\.ts$)'],
];

/** Imports that break the layers today: [from file, to file, why; what phase 2 does]. */
const EXCEPTIONS = [];

/** Cycles that exist today: each edge of the cycle, [from file, to file]. */
const CYCLE_EXCEPTIONS = [];

const re = (p) => `^${p.replace(/[.]/g, '\\.')}$`;
const forbidden = [];
LAYERS.forEach(([name, path], i) => {
  const higher = LAYERS.slice(i + 1)
    .map(([, p]) => `(${p})`)
    .join('|');
  if (!higher) return;
  const own = EXCEPTIONS.filter(([from]) => new RegExp(path).test(from));
  forbidden.push({
    name: `layer-${name}`,
    comment: `layer "${name}" imports a higher layer (see ARCHITECTURE.md)`,
    severity: 'error',
    from: { path, ...(own.length ? { pathNot: own.map(([f]) => re(f)) } : {}) },
    to: { path: higher },
  });
  for (const [from, to, why] of own) {
    forbidden.push({
      name: `layer-${name}`,
      comment: `layer "${name}" imports a higher layer (known exception for ${to}: ${why})`,
      severity: 'error',
      from: { path: re(from) },
      to: { path: higher, pathNot: re(to) },
    });
  }
});

const cycleFiles = [...new Set(CYCLE_EXCEPTIONS.map(([f]) => f))];
forbidden.push({
  name: 'no-circular',
  comment: 'an import cycle: two modules that need each other belong in one module, or one needs a lower home',
  severity: 'error',
  from: { path: '^src/', pathNot: cycleFiles.map(re) },
  to: { circular: true },
});
for (const f of cycleFiles) {
  forbidden.push({
    name: 'no-circular',
    comment: 'an import cycle (known exception for one edge, see CYCLE_EXCEPTIONS)',
    severity: 'error',
    from: { path: re(f) },
    to: { circular: true, pathNot: CYCLE_EXCEPTIONS.filter(([a]) => a === f).map(([, b]) => re(b)) },
  });
}

forbidden.push(
  {
    name: 'writer-not-producer',
    comment:
      'apply/ (the only writer) must not depend on consolidate/ (the producer): the proposal contract lives in proposal/',
    severity: 'error',
    from: { path: '^src/apply/' },
    to: { path: '^src/consolidate/' },
  },
  {
    name: 'output-only-formats',
    comment: 'html-report/ and check-formats/ only format: no file system, no writer',
    severity: 'error',
    from: { path: '^src/(html-report|check-formats)/' },
    to: { path: '^(node:)?fs(/promises)?$|^src/apply/|^src/util/atomic\\.ts$' },
  },
  {
    name: 'execute-from-commands',
    comment: 'only apply/ itself and the commands run an apply/undo/recover (apply/execute.ts, apply/journal.ts)',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(apply|commands)/' },
    to: { path: '^src/apply/(execute|journal|git)\\.ts$' },
  },
  {
    name: 'no-unresolvable',
    comment: 'an import that resolves to nothing',
    severity: 'error',
    from: {},
    to: { couldNotResolve: true },
  },
);

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
