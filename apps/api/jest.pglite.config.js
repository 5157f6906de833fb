// The API suites that write money, again on the embedded PGlite database (no DATABASE_URL: the
// README's first command), so the embedded default behaves as PostgreSQL does. The suites of the
// write paths (Idempotency-Key and its crash points, route / withdraw / settle / harvest, plans,
// webhook subscriptions and the outbox, auto-pay): about 110 s here; the broadcast suite (plan.execute,
// 30 s more) passes too but is left to PostgreSQL. Run with NODE_OPTIONS=--experimental-vm-modules
// (`pnpm test:pglite`).
/** @type {import('jest').Config} */
module.exports = {
  ...require('@yieldrouter/jest-preset'),
  displayName: 'pglite',
  setupFiles: ['<rootDir>/src/testing/usePglite.ts'],
  testMatch: [
    '<rootDir>/src/idempotency.test.ts',
    '<rootDir>/src/idempotency.crash.test.ts',
    '<rootDir>/src/wallet.flow.test.ts',
    '<rootDir>/src/plan.test.ts',
    '<rootDir>/src/webhook.happy.test.ts',
    '<rootDir>/src/audit.test.ts',
    '<rootDir>/src/audit.atomic.test.ts',
    '<rootDir>/src/autoPay.flow.test.ts',
    '<rootDir>/src/autoPay.error.test.ts',
  ],
};
