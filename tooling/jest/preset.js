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

const { availableParallelism } = require('node:os');
const { ignoredByTier } = require('./testTiers');

/** @type {import('jest').Config} */
module.exports = {
  // jest's node environment, a worker compiling each module once for all its test files
  // (./codeCache.js).
  testEnvironment: require.resolve('./environment.js'),
  // FC_SEED: one fast-check seed for the run (./fastCheckSeed.js).
  setupFiles: [require.resolve('./fastCheckSeed.js')],
  // At least two workers. Jest's default (cores − 1) is one on CI's 2-core machines, so a
  // package's files ran one after another in one process while the other core sat idle: the
  // suites mostly wait (PostgreSQL, Redis, anvil, child processes), and every file has its own
  // database, Redis prefix, beds and ports (port 0), so files never share state across workers.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  // TEST_TIERS=unit,database leaves out the other tiers (./testTiers.js); unset runs them all.
  testPathIgnorePatterns: ['/node_modules/', ...ignoredByTier(process.cwd())],
  // A package whose files are all of a tier left out has nothing to run, and that is fine.
  passWithNoTests: Boolean(process.env['TEST_TIERS']),
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
  // Also each hook's bound: it rules out a hang, not a slow machine. A beforeAll that starts
  // the Solana bed, anvil and a test app took over 60 s on a 2-core machine running CI's two
  // test lanes, lint and typecheck (and other work) at once.
  testTimeout: 120000,
};
