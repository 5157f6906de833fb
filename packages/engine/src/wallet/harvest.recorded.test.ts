import {
  IdempotentWriteTakenError,
  readStakedPositions,
  recordIdempotentWrite,
} from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { HarvestResult } from '@yieldrouter/schemas';
import { harvestWallet } from './harvest';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
  landStake,
} from './testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from './testing/useFakeStakeDatabase';

// A harvest with an Idempotency-Key books its positions and records its answer in one
// transaction: a failure before the commit books nothing, and a second run of the same write
// (a retry racing the first) can never book again.

const suite = useFakeStakeDatabase();

const M = 1_000_000n;

it('books with the recorded answer, or not at all', async () => {
  const test = suite.test();
  const chain = fakeChain();
  const wallet = fakeBase58();
  const landed = await landStake({
    db: test.db,
    chain,
    opportunities: suite.opportunities(),
    wallet,
    amountMicros: 10n * M,
  });
  expect((await landed.settle()).status).toBe('confirmed');
  chain.accrue(VENUE, M);
  const gross = chain.valueOf(VENUE, 10n * M) - 10n * M;
  // Harvest records in its own transaction: the rows form is never asked for.
  const harvest = (record: (tx: Books, result: HarvestResult) => Promise<void>) =>
    harvestWallet({
      db: test.db,
      adapters: chain.adapters,
      venues,
      address: wallet,
      execute: false,
      broadcastEnabled: () => false,
      now: new Date(),
      recordWrite: Object.assign(record, {
        rows: (): never => {
          throw new Error('harvest asked for its records as rows');
        },
      }),
    });
  const staked = async () => (await readStakedPositions(test.db, wallet))[0]?.balanceMicros;
  const harvests = () => test.db.harvest.count({ where: { wallet } });

  // The process fails after the bookings, before the commit: nothing is booked.
  await expect(
    harvest(async () => {
      throw new Error('killed before commit');
    }),
  ).rejects.toThrow('killed before commit');
  expect(await harvests()).toBe(0);
  expect(await staked()).toBe(10n * M);

  const ref = { scope: `wallet:${wallet}`, operation: 'harvest', key: 'harvest-1' };
  const record = (tx: Books, result: HarvestResult) =>
    recordIdempotentWrite(tx, {
      ...ref,
      requestHash: 'a'.repeat(64),
      status: result.httpStatus,
      headers: {},
      body: Buffer.from(JSON.stringify(result)),
    });
  const first = await harvest(record);
  expect(first).toMatchObject({ mode: 'compound', grossYieldMicros: String(gross) });
  expect(await harvests()).toBe(1);
  const afterFirst = await staked();

  // More yield accrues; a second run of the same write finds the answer recorded and rolls back.
  chain.accrue(VENUE, M);
  await expect(harvest(record)).rejects.toBeInstanceOf(IdempotentWriteTakenError);
  expect(await harvests()).toBe(1);
  expect(await staked()).toBe(afterFirst);
});
