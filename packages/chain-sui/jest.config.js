/** @type {import('jest').Config} */
const preset = require('@yieldrouter/jest-preset');

// @suilend/sdk ships ESM only: its generated Move-call bindings (the conformance tests' reference)
// go through the preset's swc step like @mysten/sui does.
module.exports = {
  ...preset,
  transformIgnorePatterns: preset.transformIgnorePatterns.map((pattern) =>
    pattern.replace('(@mysten|', '(@suilend|@mysten|'),
  ),
};
