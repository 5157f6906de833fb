// Run by `node --test` (this package's `test`): a module compiled again in the same worker for
// another test file's context reuses the first compile, yet runs with that context's own state
// and globals; a changed source is compiled afresh; a source with a dynamic import is compiled
// the way jest asked, every time (codeCache.dynamicImport.test.js: why).
const assert = require('node:assert/strict');
const { test } = require('node:test');
const vm = require('node:vm');
const { installCodeCache } = require('./codeCache');

const stats = installCodeCache();
const PARAMS = ['module', 'exports'];

/** Runs a module's source as jest does: compiled for a context, called with a fresh module. */
function run(source, context, filename = '/virtual/codeCacheProbe.js') {
  const fn = vm.compileFunction(source, PARAMS, { filename, parsingContext: context });
  const module = { exports: {} };
  fn.call(module.exports, module, module.exports);
  return module.exports;
}

test('installed once per process', () => {
  assert.equal(installCodeCache(), stats);
});

test("a second file's compile reuses the script, with its own state and its context's globals", () => {
  const source = 'let calls = 0; module.exports = { count: () => ++calls, list: [] };';
  const before = { ...stats };
  const first = vm.createContext({});
  const second = vm.createContext({});

  const a = run(source, first);
  const b = run(source, second);
  const changed = run(source.replace('++calls', 'calls += 2'), second);

  assert.equal(stats.compiled - before.compiled, 2, 'the first and the changed source');
  assert.equal(stats.reused - before.reused, 1, "the second file's compile");
  assert.deepEqual([a.count(), a.count(), b.count(), changed.count()], [1, 2, 1, 2]);
  // Each file's objects are its own context's: `[]` in the second file is that file's Array.
  assert.equal(Object.getPrototypeOf(a.list), vm.runInContext('Array.prototype', first));
  assert.equal(Object.getPrototypeOf(b.list), vm.runInContext('Array.prototype', second));
  assert.notEqual(Object.getPrototypeOf(a.list), Object.getPrototypeOf(b.list));
});

test('an error keeps the source line it was thrown on', () => {
  const source = '\n\nmodule.exports = () => { throw new Error("here"); };';
  const thrower = run(source, vm.createContext({}), '/virtual/codeCacheLines.js');
  assert.throws(thrower, (error) => error.stack.includes('/virtual/codeCacheLines.js:3:'));
});

test('a source with a dynamic import is compiled as asked, neither shared nor cached', () => {
  const source = 'module.exports = () => import("node:path");';
  const before = { ...stats };
  run(source, vm.createContext({}), '/virtual/codeCacheImport.js');
  run(source, vm.createContext({}), '/virtual/codeCacheImport.js');
  assert.deepEqual(stats, before);
});
