// The preset's test environment: jest's node environment, in a worker whose module compiles
// go through V8's code cache (./codeCache.js).
const { TestEnvironment } = require('jest-environment-node');
const { installCodeCache } = require('./codeCache');

installCodeCache();

module.exports = TestEnvironment;
