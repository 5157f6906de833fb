// The preset's test environment: jest's node environment, in a worker whose module compiles
// are shared across its test files (./codeCache.js).
//
// With JEST_TIMINGS set to a file, each test file appends a line on teardown: the worker's CPU
// milliseconds (user + system) and wall milliseconds over the file, and its path. CPU here is
// the jest worker's own (compiling, running the tests, the app in-process); PostgreSQL, Redis,
// anvil and spawned processes are not in it. `.ci/check` prints the heaviest files from it.
const { appendFileSync } = require('node:fs');
const { TestEnvironment } = require('jest-environment-node');
const { installCodeCache } = require('./codeCache');

installCodeCache();

class TimedEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.started = { cpu: process.cpuUsage(), wall: performance.now() };
  }

  async teardown() {
    await super.teardown();
    const file = process.env['JEST_TIMINGS'];
    if (!file) return;
    const cpu = process.cpuUsage(this.started.cpu);
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    const wallMs = Math.round(performance.now() - this.started.wall);
    appendFileSync(file, `${cpuMs}\t${wallMs}\t${this.testPath}\n`);
  }
}

module.exports = TimedEnvironment;
