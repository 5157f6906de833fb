import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE,
  fakeStakeVenues,
  seedFakeStakeOpportunities,
  stakeWallets,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { readStakedPositions, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { testJobDeps } from '../testing/keeperTestBed';
import { HarvestBatchJobData, runHarvestBatch } from './harvestBatch';

// The harvest batch as a plain function (no queue): every page, each wallet once; a second run
// (a retry, or a run after a killed worker) books nothing more.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

it('harvests every staked wallet across pages; running it again books nothing', async () => {
  const chain = fakeChain();
  const opportunities = await seedFakeStakeOpportunities(test.db);
  const wallets = Array.from({ length: 5 }, () => fakeBase58());
  await stakeWallets({
    db: test.db,
    chain,
    opportunities,
    wallets,
    amountMicros: 4_000_000n,
  });
  // Yield accrues to the venue's share price: each wallet's shares gain about 0.1 USDC.
  chain.accrue(FAKE_STAKE_VENUE, 500_000n);
  const gross = chain.valueOf(FAKE_STAKE_VENUE, 4_000_000n) - 4_000_000n;
  const deps = testJobDeps(test, { adapters: chain.adapters, venues: fakeStakeVenues });
  const data = HarvestBatchJobData.parse({ pageSize: 2 });
  expect(await runHarvestBatch(data, deps)).toEqual({
    wallets: 5,
    harvested: 5,
    noYield: 0,
    unavailable: 0,
    errors: 0,
    pages: 3,
  });
  expect(await runHarvestBatch(data, deps)).toMatchObject({ harvested: 0, noYield: 5 });
  for (const wallet of wallets) {
    const [position] = await readStakedPositions(test.db, wallet);
    // About 100_000 of yield: 5 % skimmed, the rest compounded.
    expect(position?.balanceMicros).toBe(4_000_000n + gross - (gross * 500n) / 10_000n);
  }
  expect((await verifyLedger(test.db)).problems).toEqual([]);
});
