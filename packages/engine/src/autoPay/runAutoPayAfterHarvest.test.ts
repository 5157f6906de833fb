import { readOpenAutoPayRuns } from '@yieldrouter/ledger';
import { harvestBatch } from '../wallets/harvestBatch';
import { harvestWallet } from '../wallets/harvest';
import { fakeBase58, fakeChain } from '../wallets/testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
  stakeWallets,
} from '../wallets/testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from '../wallets/testing/useFakeStakeDatabase';
import { getAutoPay, setAutoPay } from './autoPayConfig';

// The after_harvest trigger: a harvest that books yield prepares a run for the owner to sign
// (listed under openRuns); a config on another trigger, or paused, prepares nothing.

const { test, opportunities } = useFakeStakeDatabase();

async function stakedWallet(trigger: 'after_harvest' | 'manual', emergencyPause = false) {
  const db = test().db.prisma;
  const chain = fakeChain();
  const wallet = fakeBase58();
  await setAutoPay(
    db,
    chain.adapters,
    venues,
    wallet,
    {
      enabled: true,
      percentage: 100,
      payees: [{ payeeId: 'only', address: fakeBase58(), weightBps: 10_000 }],
      trigger,
      emergencyPause,
    },
    new Date(),
  );
  await stakeWallets({
    db,
    settlements: test().db.settlements,
    chain,
    opportunities: opportunities(),
    wallets: [wallet],
    amountMicros: 10_000_000n,
  });
  chain.accrue(VENUE, 1_000_000n);
  return { db, chain, wallet };
}

it('a harvest with yield prepares the run; another trigger or a pause prepares none', async () => {
  const { db, chain, wallet } = await stakedWallet('after_harvest');
  const harvest = () =>
    harvestWallet({
      db,
      adapters: chain.adapters,
      venues,
      address: wallet,
      execute: false,
      broadcastEnabled: () => false,
      now: new Date(),
    });
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
    await harvestWallet({
      db,
      adapters: other.chain.adapters,
      venues,
      address: other.wallet,
      execute: false,
      broadcastEnabled: () => false,
      now: new Date(),
    });
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
