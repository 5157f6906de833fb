import { verifyLedger } from '@yieldrouter/ledger';
import { forceReservationWithoutLeg } from '@yieldrouter/ledger/testing';
import { ReconciliationDriftData } from '@yieldrouter/schemas';
import { reconcileBooks } from './reconcileBooks';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import { fakeStakeVenues } from './testing/stakeOnFakeChain';
import { BED_VENUE, useWalletMoneyDatabase } from './testing/walletMoneyBed';

// Reconciliation reads every tracked position on chain and every reservation, and reports each
// way the books and the chain differ, with its size and cause; above the threshold it raises
// `reconciliation.drift`. It never moves the books.

const M = 1_000_000n;
const { test: database, bed } = useWalletMoneyDatabase();

it('reports outside money, missing shares, losses and reservations without a leg, exactly', async () => {
  const chain = fakeChain();
  const a = bed(chain);
  const b = bed(chain);
  for (const [wallet, amount] of [
    [a, 100n * M],
    [b, 50n * M],
  ] as const) {
    const planId = await wallet.route(amount, true);
    await wallet.settle(planId, wallet.execute(planId, amount));
  }
  const reconcile = (thresholdMicros = 10_000n) =>
    reconcileBooks({
      db: database().db,
      adapters: chain.adapters,
      venues: fakeStakeVenues,
      thresholdMicros,
      trigger: 'manual',
      pageSize: 1,
      now: () => new Date(),
    });
  // Books and chain agree: nothing to report.
  const clean = await reconcile();
  expect(clean).toMatchObject({ positions: 2, unavailable: 0, aboveThreshold: 0 });
  expect(Object.values(clean.drifts).every((total) => total.count === 0)).toBe(true);

  chain.depositOutside(a.wallet, BED_VENUE, 30n * M);
  chain.withdrawOutside(b.wallet, BED_VENUE, 20n * M);
  chain.accrue(BED_VENUE, -16n * M);
  // A reservation no leg holds (what the database refuses, forced past its rule).
  const rogue = fakeBase58();
  await forceReservationWithoutLeg(database().db, { wallet: rogue, amountMicros: 7n * M });

  const report = await reconcile();
  const value = (shares: bigint) => chain.valueOf(BED_VENUE, shares);
  const aShares = 100n * M;
  const bShares = 50n * M;
  const untracked = value(chain.sharesOf(a.wallet, BED_VENUE)) - value(aShares);
  const missing = value(bShares) - value(chain.sharesOf(b.wallet, BED_VENUE));
  const loss = 100n * M - value(aShares) + (50n * M - value(bShares));
  expect(report.drifts).toEqual({
    untracked: { count: 1, micros: untracked },
    shares_missing: { count: 1, micros: missing },
    value_below_books: { count: 2, micros: loss },
    reservation_without_leg: { count: 1, micros: 7n * M },
    wallet_below_books: { count: 0, micros: 0n },
    shares_unknown: { count: 0, micros: 0n },
    in_flight_without_bridge: { count: 0, micros: 0n },
    auto_pay_without_payout: { count: 0, micros: 0n },
    staked_without_position: { count: 0, micros: 0n },
    skim_receivable: { count: 0, micros: 0n },
    treasury_below_books: { count: 0, micros: 0n },
  });
  expect(report.aboveThreshold).toBe(5);

  const rows = await database().db.reconciliationDrift.findMany({
    where: { runId: report.runId },
  });
  expect(rows).toHaveLength(5);
  const events = await database().db.outboxEvent.findMany({
    where: { type: 'reconciliation.drift', payload: { path: ['runId'], equals: report.runId } },
  });
  expect(events).toHaveLength(5);
  for (const event of events) ReconciliationDriftData.strict().parse(event.payload);
  expect(events.find((event) => event.wallet === rogue)?.payload).toMatchObject({
    kind: 'reservation_without_leg',
    driftMicros: String(7n * M),
  });
  const run = await database().db.reconciliationRun.findUniqueOrThrow({
    where: { id: report.runId },
  });
  expect(run).toMatchObject({ positions: 2, drifts: 5, aboveThreshold: 5 });

  // Under a higher threshold the same drifts are recorded, and only the large ones raise events.
  const quiet = await reconcile(25n * M);
  expect(quiet.drifts.untracked.count).toBe(1);
  expect(quiet.aboveThreshold).toBe(1);
  // Reconciliation never moves the books: only the rogue reservation is a ledger problem.
  expect((await verifyLedger(database().db)).problems.map((problem) => problem.check)).toEqual([
    'reservation_mismatch',
  ]);
});
