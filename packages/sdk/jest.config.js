const { maxWorkers, ...preset } = require('@yieldrouter/jest-preset');

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: preset.testTimeout,
  // A root option: TEST_TIERS may leave a project, or both, with nothing to run.
  passWithNoTests: preset.passWithNoTests,
  // A root option only (jest warns when a project carries it).
  maxWorkers,
  projects: [
    { ...preset, displayName: 'source' },
    // The client suites again, against the built core entry (dist/index.js, built before the
    // tests like the pack checks need): the build strips the bundled manifest down to what the
    // client reads at run time, and these show that nothing it reads went with it.
    {
      ...preset,
      displayName: 'bundle',
      testMatch: [
        '<rootDir>/src/createClient.happy.test.ts',
        '<rootDir>/src/createClient.error.test.ts',
        '<rootDir>/src/http/readResult.schema.test.ts',
        '<rootDir>/src/http/sendRequest.retry.test.ts',
      ],
      moduleNameMapper: {
        '^(\\.\\.?/)+(createClient|errors/\\w+|plans/isBlockedPlan)$': '<rootDir>/dist/index.js',
      },
    },
  ],
};
