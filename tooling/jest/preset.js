// Shared jest preset: TypeScript through swc (fast, no type checking; `pnpm typecheck` does that).
// ESM-only dependencies (@mysten/sui and its @noble / @scure / valibot stack) are transformed to
// CommonJS by the same swc step, so tests stay in jest's CommonJS mode.
const ESM_ONLY = [
  '@mysten',
  '@noble',
  '@scure',
  '@protobuf-ts',
  '@graphql-typed-document-node',
  'gql\\.tada',
  '@0no-co',
  'graphql',
  'valibot',
  'poseidon-lite',
  '@foundry-rs',
];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  transform: {
    '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
      require.resolve('@swc/jest'),
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [
    `/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(${ESM_ONLY.join('|')})/)`,
  ],
  testTimeout: 30000,
};
