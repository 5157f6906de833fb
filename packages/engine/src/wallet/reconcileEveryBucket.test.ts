import { findSettlementLeg, postJournalEntry, verifyLedger } from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { forceReservationWithoutLeg } from '@yieldrouter/ledger/testing';
import type { AssetBalance, ChainAdapter } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { runAutoPay } from '../autoPay/runAutoPay';
import { harvestOnFakeChain, stakedOnePayeeWallet } from '../autoPay/testing/autoPayOnFakeChain';
import { reconcileBooks } from './reconcileBooks';
import { settleLeg } from './settleLeg';
import { fakeBase58 } from './testing/fakeChain';
import { FAKE_STAKE_VENUE as VENUE, fakeStakeVenues as venues } from './testing/stakeOnFakeChain';
import {
  FAKE_USDC,
  FAKE_WSOL,
  WSOL_ASSET,
  creditLiquid,
  storeSwapPlan,
  swapChain,
} from './testing/swapsOnFakeChain';
import { useFakeStakeDatabase } from './testing/useFakeStakeDatabase';

// Issue 40: reconciliation sees every bucket and asset the books hold. A wallet that staked,
// harvested, ran auto-pay (its payout still open), swapped USDC into wrapped SOL and holds native
// SOL reconciles clean; then one difference per bucket and asset is made, each seen once.

const { test, opportunities } = useFakeStakeDatabase();
const M = 1_000_000n;
const SOL = 1_000_000_000n;

/** A wallet's balances on the chain, served through the adapter's `readBalances` contract. */
function withBalances(adapters: ChainAdapters, held: Map<string, Map<string, bigint>>) {
  const readBalances: ChainAdapter['readBalances'] = async (address) =>
    [...(held.get(address) ?? new Map<string, bigint>())].map(([asset, amount]): AssetBalance => ({
      asset,
      decimals: 6,
      status: 'ok',
      amount,
    }));
  return { ...adapters, solana: { ...adapters.solana, readBalances } };
}

async function force(account: AccountRef, micros: bigint) {
  const asset = 'asset' in account ? account.asset : undefined;
  await test().db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.rogue',
      postings: [
        {
          account: { system: 'external', chain: 'solana', ...(asset ? { asset } : {}) },
          amountMicros: -micros,
        },
        { account, amountMicros: micros },
      ],
    }),
  );
}

it('reports a drift for each bucket and asset that differs from the chain, none when clean', async () => {
  const db = test().db;
  const { chain, wallet } = await stakedOnePayeeWallet({
    db,
    opportunities: opportunities(),
    percentage: 100,
    principalMicros: 100n * M,
  });
  const swaps = swapChain(chain);
  const held = new Map<string, Map<string, bigint>>();
  const adapters = withBalances(swaps.adapters, held);
  const settle = (planId: string, legIndex: number, txId: string) =>
    settleLeg({
      db,
      adapters,
      venues,
      planId,
      legIndex,
      txId,
      now: new Date(),
    });
  chain.accrue(VENUE, 10n * M);
  await harvestOnFakeChain(db, chain, wallet);
  const run = await runAutoPay({
    db,
    adapters,
    venues,
    address: wallet,
    target: {},
    now: new Date(),
  });
  const planId = run.planId as string;
  await settle(planId, 0, chain.execute({ planId, amountMicros: BigInt(run.split.amountMicros) }));
  await creditLiquid(db, wallet, 20n * M);
  const swap = await storeSwapPlan(db, wallet, FAKE_USDC, FAKE_WSOL, 10n * M);
  await settle(swap, 0, swaps.swap(swap, 10n * M, SOL));
  await force({ wallet, chain: 'solana', bucket: 'liquid', asset: 'native' }, SOL / 2n);
  // The chain holds what the books say the owner's wallet holds: liquid and auto_pay (USDC).
  held.set(
    wallet,
    new Map([
      ['USDC', 10n * M + 9_500_000n],
      ['SOL', SOL / 2n],
      [WSOL_ASSET, SOL],
    ]),
  );
  const reconcile = () =>
    reconcileBooks({
      db,
      adapters,
      venues,
      thresholdMicros: 1n,
      trigger: 'manual',
      now: () => new Date(),
    });
  const clean = await reconcile();
  expect(clean.holdings).toBe(3);
  expect(clean.unavailable).toBe(0);
  const count = (report: Awaited<ReturnType<typeof reconcile>>) =>
    Object.fromEntries(Object.entries(report.drifts).map(([kind, total]) => [kind, total.count]));
  expect(Object.values(count(clean)).every((drifts) => drifts === 0)).toBe(true);

  // The chain: one micro less of each asset than the books hold in the wallet.
  held.set(
    wallet,
    new Map([
      ['USDC', 10n * M + 9_500_000n - 1n],
      ['SOL', SOL / 2n - 1n],
      [WSOL_ASSET, SOL - 1n],
    ]),
  );
  // The books: a balance in each followed bucket that nothing accounts for (other wallets).
  await force({ wallet: fakeBase58(), chain: 'solana', bucket: 'in_flight' }, 5n * M);
  await force({ wallet: fakeBase58(), chain: 'solana', bucket: 'auto_pay' }, 3n * M);
  const opportunity = opportunities().find((entry) => entry.venueId === VENUE);
  await force(
    { wallet: fakeBase58(), chain: 'solana', bucket: `staked:${opportunity?.opportunityId}` },
    2n * M,
  );
  await forceReservationWithoutLeg(test().db, { wallet: fakeBase58(), amountMicros: 7n * M });
  // A position whose shares the books never tracked.
  await db.$executeRaw`UPDATE positions SET shares_known = false WHERE wallet = ${wallet}`;

  const report = await reconcile();
  expect(count(report)).toEqual({
    untracked: 0,
    shares_missing: 0,
    value_below_books: 0,
    reservation_without_leg: 1,
    wallet_below_books: 3,
    shares_unknown: 1,
    in_flight_without_bridge: 1,
    auto_pay_without_payout: 1,
    staked_without_position: 1,
    skim_receivable: 0,
    treasury_below_books: 0,
  });
  expect(report.drifts.wallet_below_books.micros).toBe(3n);
  expect(report.drifts.in_flight_without_bridge.micros).toBe(5n * M);
  expect(report.drifts.auto_pay_without_payout.micros).toBe(3n * M);
  expect(report.drifts.staked_without_position.micros).toBe(2n * M);

  // The run's payout leg is still open: what auto_pay holds for it is no drift.
  const leg = await findSettlementLeg(db, planId, 1);
  expect(leg?.status).toBe('unsigned');
  expect((await verifyLedger(db)).problems.map((problem) => problem.check)).toEqual([
    'reservation_mismatch',
  ]);
});
