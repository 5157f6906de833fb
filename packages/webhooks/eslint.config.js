const base = require('@yieldrouter/eslint-config');

// Bundled into the published SDK, which runs in Node, browsers, Deno and Bun: web APIs only.
// Tests may use Node (they check the HMAC against node:crypto), and so may src/server (the
// `@yieldrouter/webhooks/server` entry: key encryption, URL policy and delivery, server-side
// only, never bundled into the SDK), and so may the test receiver (`/testing`).
module.exports = [
  ...base,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/server/**', 'src/testing/**', 'src/testing.ts'],
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
