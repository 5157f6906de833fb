/** @type {import('jest').Config} */
module.exports = {
  ...require('@yieldrouter/jest-preset'),
  // Both suites start the whole service from source (tsx compiles the API and the keeper on a
  // cold cache); side by side, beside CI's lint and typecheck, they starved each other past the
  // start-up bound. One at a time.
  maxWorkers: 1,
};
