import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Opportunity } from '@yieldrouter/schemas';
import { harvestBatch } from './harvestBatch';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import {
  FAKE_STAKE_VENUE,
  fakeStakeVenues,
  seedFakeStakeOpportunities,
  stakeWallets,
} from './testing/stakeOnFakeChain';

let test: TestDatabase;
let opportunities: Opportunity[];
beforeAll(async () => {
  test = await createTestDatabase();
  opportunities = await seedFakeStakeOpportunities(test.db);
});
afterAll(() => test.drop());

it('pages over staked wallets: yield harvested, no yield and unreadable counted, cursor to the end', async () => {
  const chain = fakeChain();
  const wallets = [fakeBase58(), fakeBase58(), fakeBase58()].sort();
  await stakeWallets({
    db: test.db,
    chain,
    opportunities,
    wallets,
    amountMicros: 10_000_000n,
  });
  const [, b] = wallets as [string, string, string];
  // Yield accrues to every share of the venue: each wallet's 10 USDC of shares gain about 0.2.
  chain.accrue(FAKE_STAKE_VENUE, 600_000n);
  const gross = chain.valueOf(FAKE_STAKE_VENUE, 10_000_000n) - 10_000_000n;
  const fee = (gross * 500n) / 10_000n;

  const page = (after?: string) =>
    harvestBatch({
      db: test.db,
      adapters: chain.adapters,
      venues: fakeStakeVenues,
      pageSize: 2,
      ...(after ? { after } : {}),
      now: () => new Date(),
    });
  const first = await page();
  expect(first).toMatchObject({
    schemaVersion: 'harvest-plan.v1',
    wallets: 2,
    positions: { harvested: 2, noYield: 0, unavailable: 0 },
    grossYieldMicros: String(2n * gross),
    feeMicros: String(2n * fee),
    netYieldMicros: String(2n * (gross - fee)),
    errors: [],
    nextCursor: b,
  });
  // The third wallet: the chain cannot be read.
  chain.setUnreadable(FAKE_STAKE_VENUE, true);
  const second = await page(first.nextCursor ?? undefined);
  expect(second).toMatchObject({
    wallets: 1,
    positions: { harvested: 0, noYield: 0, unavailable: 1 },
    grossYieldMicros: '0',
    nextCursor: null,
  });
  // Running the batch again finds nothing new: the yield was booked once.
  chain.setUnreadable(FAKE_STAKE_VENUE, false);
  const rerun = await page();
  expect(rerun).toMatchObject({ grossYieldMicros: '0', positions: { harvested: 0, noYield: 2 } });
});
