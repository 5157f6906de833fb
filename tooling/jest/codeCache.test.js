// Run by `node --test` (this package's `test`): a module compiled again in the same worker
// consumes the code cache its first compile produced, and a changed source is compiled afresh.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const vm = require('node:vm');
const { installCodeCache } = require('./codeCache');

test('the second compile of the same source consumes the cache; another source does not', () => {
  const stats = installCodeCache();
  assert.equal(installCodeCache(), stats, 'installed once per process');
  const options = { filename: '/virtual/codeCacheProbe.js' };
  const source = 'module.exports = (function answer() { return 6 * 7; })();';
  const before = { ...stats };

  const first = vm.compileFunction(source, ['module'], options);
  const second = vm.compileFunction(source, ['module'], options);
  const changed = vm.compileFunction(source.replace('6 * 7', '6 * 8'), ['module'], options);

  assert.equal(stats.produced - before.produced, 2, 'the first and the changed source');
  assert.equal(stats.consumed - before.consumed, 1, 'the second compile');
  assert.equal(second.cachedDataRejected, false);
  // Each compile is its own function, run in its own module: nothing but code is shared.
  for (const [fn, expected] of [
    [first, 42],
    [second, 42],
    [changed, 48],
  ]) {
    const module = {};
    fn(module);
    assert.equal(module.exports, expected);
  }
});
