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
  opportunities = await seedFakeStakeOpportunities(test.db.prisma);
});
afterAll(() => test.drop());

it('pages over staked wallets: yield harvested, no yield and unreadable counted, cursor to the end', async () => {
  const chain = fakeChain();
  const wallets = [fakeBase58(), fakeBase58(), fakeBase58()].sort();
  await stakeWallets({
    db: test.db.prisma,
    settlements: test.db.settlements,
    chain,
    opportunities,
    wallets,
    amountMicros: 10_000_000n,
  });
  const [a, b] = wallets as [string, string, string];
  chain.setPositionValue(a, FAKE_STAKE_VENUE, 10_200_000n); // 200_000 of yield
  chain.setPositionValue(b, FAKE_STAKE_VENUE, 10_000_000n); // none
  // The third wallet: the chain cannot be read.

  const page = (after?: string) =>
    harvestBatch({
      db: test.db.prisma,
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
    positions: { harvested: 1, noYield: 1, unavailable: 0 },
    grossYieldMicros: '200000',
    feeMicros: '10000',
    netYieldMicros: '190000',
    errors: [],
    nextCursor: b,
  });
  const second = await page(first.nextCursor ?? undefined);
  expect(second).toMatchObject({
    wallets: 1,
    positions: { harvested: 0, noYield: 0, unavailable: 1 },
    grossYieldMicros: '0',
    nextCursor: null,
  });
  // Running the batch again finds nothing new: the yield was booked once.
  const rerun = await page();
  expect(rerun).toMatchObject({ grossYieldMicros: '0', positions: { harvested: 0, noYield: 2 } });
});
