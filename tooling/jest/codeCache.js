// V8's code cache for the modules jest compiles, kept for the life of a jest worker.
//
// Jest gives every test file a fresh module registry, so a worker compiles the same ~1,400
// modules (the app's graph: viem, zod, the chain SDKs, our packages) again for each of its
// files: V8 parses each source whole before running it. Its transform cache spares the
// TypeScript step, not this one. Here the first compile of a module in a worker also produces
// V8's code cache for it, and later compiles of the same source consume it (V8 deserialises the
// compiled top level instead of parsing the file). Only compiled code is shared: each test file
// still runs every module afresh in its own context, with its own state.
const vm = require('node:vm');

const INSTALLED = Symbol.for('yieldrouter.jest.codeCache');

/**
 * Whether a module may call `import()` through jest's callback. Node 20 ties the callback to the
 * function a compile returns, and a compile that consumes a code cache keeps the callback
 * reference of the compile that produced it: once that first function is collected, `import()`
 * in every later compile of the module throws "A dynamic import callback was not specified"
 * (PGlite's loader in the API's PGlite project, second file of a worker on). Such modules are
 * compiled without the cache.
 */
function dynamicImportIn(code, options) {
  return options.importModuleDynamically !== undefined && code.includes('import(');
}

/**
 * Wraps `vm.compileFunction` (what jest-runtime compiles each CommonJS module with) in this
 * process, once. A cache entry is used only for the same file, parameters and source text.
 */
function installCodeCache() {
  if (vm[INSTALLED]) return vm[INSTALLED];
  const compile = vm.compileFunction;
  const entries = new Map();
  const stats = { produced: 0, consumed: 0, rejected: 0 };
  vm.compileFunction = function compileFunctionWithCodeCache(code, params, options) {
    const filename = options?.filename;
    if (
      typeof code !== 'string' ||
      typeof filename !== 'string' ||
      options.cachedData !== undefined ||
      options.produceCachedData !== undefined ||
      dynamicImportIn(code, options)
    ) {
      return compile(code, params, options);
    }
    const key = `${filename}\0${(params ?? []).join(',')}`;
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
