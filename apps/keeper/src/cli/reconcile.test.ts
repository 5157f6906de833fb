import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, forceReservationWithoutLeg } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';

// `pnpm ledger:reconcile` as a person runs it: a table of drifts, exit 1 above the threshold.

const run = promisify(execFile);
const PACKAGE = path.join(__dirname, '..', '..');
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  // A reservation no open leg holds: 3 USDC in pending_in.
  await forceReservationWithoutLeg(test.db, { wallet: 'rogue', amountMicros: 3_000_000n });
});
afterAll(() => test.drop());

const reconcile = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/reconcile.ts', ...args], {
    cwd: PACKAGE,
    env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: test.url, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });

it('prints the drifts per kind and exits 1 when one is at or above the threshold', async () => {
  const failed = reconcile().then(
    () => undefined,
    (error: { code: number; stdout: string }) => error,
  );
  const error = await failed;
  expect(error?.code).toBe(1);
  expect(error?.stdout).toMatch(/reservation_without_leg\s+1\s+3000000 micros/);
  expect(error?.stdout).toMatch(/above threshold: 1/);
  const quiet = await reconcile('--threshold', '5000000');
  expect(quiet.stdout).toMatch(/above threshold: 0/);
  await expect(reconcile('--threshold', 'lots')).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/--threshold: lots is not an integer number of micros/),
  });
}, 120_000);
