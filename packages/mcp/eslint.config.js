const base = require('@yieldrouter/eslint-config');

module.exports = [
  ...base,
  { files: ['bin/**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
];
