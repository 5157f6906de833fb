// The preset's test environment: jest's node environment, in a worker whose module compiles
// are shared across its test files (./codeCache.js).
const { TestEnvironment } = require('jest-environment-node');
const { installCodeCache } = require('./codeCache');

installCodeCache();

module.exports = TestEnvironment;
