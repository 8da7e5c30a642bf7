// memlint's binary loader (copied to dist/bin/load.cjs by scripts/bundle.mjs, which fills in BUNDLE_HASH).
// It runs the CommonJS bundle through vm.Script with a V8 code cache kept beside it, so that hooks
// and guard, which start a process per call, skip most parsing and compiling (BENCHMARKS.md).
// A cache is named after the bundle's sha1, the command, the Node version and the architecture:
// V8 itself checks only the source's length, so a rebuilt bundle must never meet an old cache.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire, wrap } = require('node:module');

const BUNDLE_HASH = '__BUNDLE_HASH__';
const bundle = path.join(__dirname, 'memlint.cjs');
// One cache per command: it holds the functions the run that wrote it compiled, and check, guard and
// the rest each compile their own.
const arg = process.argv[2] ?? '';
// A command run on a worker (src/commands/isolate.ts: MEMLINT_ISOLATE=0 there) compiles the whole command, the main
// thread only its dispatch: each keeps a cache of its own.
const command = (/^[a-z][a-z-]{0,30}$/.test(arg) ? arg : 'other') + (process.env.MEMLINT_ISOLATE === '0' ? '-run' : '');
const cacheFile = path.join(__dirname, `.memlint.${BUNDLE_HASH}.${command}.${process.version}-${process.arch}.v8cache`);

let cached;
try {
  cached = fs.readFileSync(cacheFile);
} catch {
  cached = undefined;
}
const source = fs.readFileSync(bundle, 'utf8');
// vm.Script, unlike require, does not skip a #! line: make it a comment of the same length.
const script = new vm.Script(wrap(source.startsWith('#!') ? `//${source.slice(2)}` : source), {
  filename: bundle,
  cachedData: cached,
});
if (cached === undefined || script.cachedDataRejected) {
  // Written when the command is done, so the cache holds every function this run compiled.
  process.once('exit', () => {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    } catch {
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* nothing written */
      }
      // A read-only install runs without the cache.
    }
  });
}
const module_ = { exports: {} };
script.runInThisContext().call(module_.exports, module_.exports, createRequire(bundle), module_, bundle, __dirname);
