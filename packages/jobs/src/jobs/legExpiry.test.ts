import {
  bedOpportunities,
  walletMoneyBed,
} from '@yieldrouter/engine/src/wallet/testing/walletMoneyBed';
import { findPlan, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { testJobDeps } from '../testing/keeperTestBed';
import { expireUnsignedLegs } from './legExpiry';

// A withdrawal prepared and never signed used to hold the wallet's liquid for good
// (INSUFFICIENT_LIQUID 30 days later). Past the TTL the leg expires and the liquid is back;
// the leg still settles if the owner signs it and the chain runs it after all.

const HOUR = 3_600_000;
const M = 1_000_000n;
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

it('expires unsigned legs past the TTL, releasing their reservations; a late landing settles', async () => {
  const wallet = walletMoneyBed(test.db, await bedOpportunities(test.db));
  const funding = await wallet.route(8n * M);
  await wallet.settle(funding, wallet.execute(funding, 8n * M));
  const exit = await wallet.withdraw(8n * M);
  const route = await wallet.route(2n * M);
  await expect(wallet.withdraw(M)).rejects.toMatchObject({ code: 'INSUFFICIENT_LIQUID' });

  let clock = new Date();
  const deps = testJobDeps(test, {
    adapters: wallet.chain.adapters,
    venues: { ids: {}, apyPools: {}, apyMaxAgeMs: HOUR, apyMeanMinSamples: 3 },
    settlement: {
      pageSize: 1,
      concurrency: 1,
      giveUpAfterMs: HOUR,
      releasedWatchMs: 24 * HOUR,
      unsignedTtlMs: 24 * HOUR,
    },
    now: () => clock,
  });
  // Inside the TTL nothing moves.
  expect(await expireUnsignedLegs(deps)).toEqual({ expired: 0, skipped: 0, errors: 0 });
  clock = new Date(Date.now() + 25 * HOUR);
  expect(await expireUnsignedLegs(deps)).toEqual({ expired: 2, skipped: 0, errors: 0 });
  expect(await wallet.books()).toMatchObject({ liquid: 8n * M, pendingOut: 0n, pendingIn: 0n });
  const expired = await findPlan(test.db, exit);
  expect(expired?.legs[0]).toMatchObject({ status: 'expired', txId: null });
  expect(expired?.legs[0]?.failureReason).toMatch(/^expired: unsigned 24 h after/);
  expect(await expireUnsignedLegs(deps)).toEqual({ expired: 0, skipped: 0, errors: 0 });

  // The liquid is free again; and the route the owner signs late is still credited.
  await wallet.withdraw(M);
  expect(await wallet.settle(route, wallet.execute(route, 2n * M))).toMatchObject({
    status: 'confirmed',
  });
  expect(await wallet.books()).toMatchObject({ liquid: 9n * M, pendingOut: M, pendingIn: 0n });
  expect((await verifyLedger(test.db)).problems).toEqual([]);
});
