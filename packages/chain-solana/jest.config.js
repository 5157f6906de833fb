const preset = require('@yieldrouter/jest-preset');

// `@jup-ag/lend` (a devDependency for the Jupiter Lend conformance tests) ships ESM only: the
// preset's swc step turns it into CommonJS like the preset's own ESM-only packages.
const [ignoreEsmOnly] = preset.transformIgnorePatterns;

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  transformIgnorePatterns: [ignoreEsmOnly.replace('?(', '?(@jup-ag|')],
};
