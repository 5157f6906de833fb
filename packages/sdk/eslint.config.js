const base = require('@yieldrouter/eslint-config');

// The published core runs in Node, browsers, Deno and Bun: fetch and web globals only.
// Tests and test servers (src/testing) may use Node.
module.exports = [
  ...base,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The SDK core uses web APIs only (no Node built-ins).' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'The SDK core runs outside Node too.' },
        { name: 'Buffer', message: 'The SDK core runs outside Node too.' },
        { name: 'require', message: 'The SDK core runs outside Node too.' },
      ],
    },
  },
];
