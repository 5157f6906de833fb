import { readOpenAutoPayRuns } from '@yieldrouter/ledger';
import { harvestBatch } from '../wallet/harvestBatch';
import { fakeBase58 } from '../wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
} from '../wallet/testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from '../wallet/testing/useFakeStakeDatabase';
import { getAutoPay } from './autoPayConfig';
import { harvestOnFakeChain, stakedAutoPayWallet } from './testing/autoPayOnFakeChain';

// The after_harvest trigger: a harvest that books yield prepares a run for the owner to sign
// (listed under openRuns); a config on another trigger, or paused, prepares nothing.

const { test, opportunities } = useFakeStakeDatabase();

async function stakedWallet(trigger: 'after_harvest' | 'manual', emergencyPause = false) {
  const db = test().db;
  const staked = await stakedAutoPayWallet({
    db,
    opportunities: opportunities(),
    config: {
      enabled: true,
      percentage: 100,
      payees: [{ payeeId: 'only', address: fakeBase58(), weightBps: 10_000 }],
      trigger,
      emergencyPause,
    },
    principalMicros: 10_000_000n,
  });
  staked.chain.accrue(VENUE, 1_000_000n);
  return { db, ...staked };
}

it('a harvest with yield prepares the run; another trigger or a pause prepares none', async () => {
  const { db, chain, wallet } = await stakedWallet('after_harvest');
  const harvest = () => harvestOnFakeChain(db, chain, wallet);
  const booked = await harvest();
  const [run] = await readOpenAutoPayRuns(db, wallet);
  expect(run?.amountMicros).toBe(BigInt(booked.netYieldMicros));
  const document = await getAutoPay(db, chain.adapters, venues, wallet, new Date());
  expect(document.openRuns).toEqual([expect.objectContaining({ planId: run?.planId })]);
  // Nothing more harvested: no second run.
  await harvest();
  expect(await readOpenAutoPayRuns(db, wallet)).toHaveLength(1);

  for (const [trigger, paused] of [
    ['manual', false],
    ['after_harvest', true],
  ] as const) {
    const other = await stakedWallet(trigger, paused);
    await harvestOnFakeChain(db, other.chain, other.wallet);
    expect(await readOpenAutoPayRuns(db, other.wallet)).toEqual([]);
  }
});

it('the keeper harvest batch prepares the run as the wallet harvest does', async () => {
  const { db, chain, wallet } = await stakedWallet('after_harvest');
  const page = await harvestBatch({
    db,
    adapters: chain.adapters,
    venues,
    pageSize: 1_000,
    now: () => new Date(),
  });
  expect(page.errors).toEqual([]);
  expect(await readOpenAutoPayRuns(db, wallet)).toHaveLength(1);
});
