// Run by `node --experimental-vm-modules --expose-gc --test` (this package's `test`): a module
// that calls import() still can after the compile that produced its code cache is collected.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const vm = require('node:vm');
const { installCodeCache } = require('./codeCache');

test('import() works in every compile of a module, after the first compile is collected', async () => {
  installCodeCache();
  const source = 'return import("node:path").then((path) => typeof path.join);';
  const options = {
    filename: '/virtual/dynamicImportProbe.js',
    importModuleDynamically: () => import('node:path'),
  };
  assert.equal(await vm.compileFunction(source, [], options)(), 'function');
  for (let round = 0; round < 3; round += 1) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
    const again = vm.compileFunction(source, [], options);
    global.gc();
    assert.equal(await again(), 'function', `compile ${round + 2}`);
  }
});
