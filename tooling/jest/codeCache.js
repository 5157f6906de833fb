// Compiled code shared across the test files of a jest worker.
//
// Jest gives every test file a fresh module registry in a fresh context, so a worker compiles
// the same ~1,000 modules (the app's graph: viem, zod, the chain SDKs, our packages) again for
// each of its files, and V8 compiles their functions lazily again as each file runs them. Its
// transform cache spares the TypeScript step, not these. Here a module's source is compiled
// once per worker, as a `vm.Script` of the module wrapper (jest ≤ 26 wrapped modules the same
// way), and run in each test file's context: V8 keeps the compiled top level and every
// function compiled since (bytecode belongs to the script, not to a context), while each file
// still gets its own closures, module state and globals. Other compiles (outside a test file's
// context) consume V8's code cache for their top level.
//
// A module whose source has a dynamic `import()` is compiled the way jest asks, every time,
// with neither: its `import()` goes through a callback tied to one file's runtime, and on Node
// 20 a compile that consumes a code cache keeps the callback of the compile that produced it,
// so once that first function is collected `import()` throws "A dynamic import callback was
// not specified" (PGlite's loader, second file of a worker on; codeCache.dynamicImport.test.js).
const vm = require('node:vm');

const INSTALLED = Symbol.for('yieldrouter.jest.codeCache');
// A dynamic import anywhere in the source (a false match only costs the sharing).
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/**
 * Wraps `vm.compileFunction` (what jest-runtime compiles each CommonJS module with) in this
 * process, once. A shared script or cache entry is used only for the same file, parameters and
 * source text.
 */
function installCodeCache() {
  if (vm[INSTALLED]) return vm[INSTALLED];
  const compile = vm.compileFunction;
  const scripts = new Map();
  const entries = new Map();
  const stats = { compiled: 0, reused: 0, produced: 0, consumed: 0, rejected: 0 };
  vm.compileFunction = function compileFunctionShared(code, params, options) {
    const filename = options?.filename;
    if (
      typeof code !== 'string' ||
      typeof filename !== 'string' ||
      options.cachedData !== undefined ||
      options.produceCachedData !== undefined ||
      options.contextExtensions !== undefined ||
      DYNAMIC_IMPORT.test(code)
    ) {
      return compile(code, params, options);
    }
    const names = params ?? [];
    const key = `${filename}\0${names.join(',')}`;
    const context = options.parsingContext;
    if (context !== undefined) {
      let shared = scripts.get(key);
      if (shared === undefined || shared.code !== code) {
        // One line of wrapper before the source: its line numbers are the module's own.
        const script = new vm.Script(`(function (${names.join(', ')}) {${code}\n})`, {
          filename,
        });
        shared = { code, script };
        scripts.set(key, shared);
        stats.compiled += 1;
      } else {
        stats.reused += 1;
      }
      return shared.script.runInContext(context);
    }
    const entry = entries.get(key);
    if (entry !== undefined && entry.code === code) {
      const fn = compile(code, params, { ...options, cachedData: entry.data });
      if (fn.cachedDataRejected === true) {
        stats.rejected += 1;
        entries.delete(key);
      } else {
        stats.consumed += 1;
      }
      return fn;
    }
    const fn = compile(code, params, { ...options, produceCachedData: true });
    if (fn.cachedData !== undefined) {
      entries.set(key, { code, data: fn.cachedData });
      stats.produced += 1;
    }
    return fn;
  };
  vm[INSTALLED] = stats;
  return stats;
}

module.exports = { installCodeCache };
