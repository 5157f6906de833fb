const base = require('@yieldrouter/eslint-config');

// Bundled into the published SDK (`@yieldrouter/sdk/verify`), which runs in Node and browsers:
// web APIs only outside the tests.
module.exports = [
  ...base,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'Runs in browsers too (no Node built-ins).' }] },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Runs outside Node too.' },
        { name: 'Buffer', message: 'Runs outside Node too.' },
        { name: 'require', message: 'Runs outside Node too.' },
      ],
    },
  },
];
