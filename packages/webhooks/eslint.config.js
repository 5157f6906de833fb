const base = require('@yieldrouter/eslint-config');

// Bundled into the published SDK, which runs in Node, browsers, Deno and Bun: web APIs only.
// Tests may use Node (they check the HMAC against node:crypto).
module.exports = [
  ...base,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['node:*'], message: 'Web Crypto only (no Node built-ins).' }],
        },
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
