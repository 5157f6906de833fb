import fc from 'fast-check';
import { findPlan, verifyLedger } from '@yieldrouter/ledger';
import { EngineError } from '../errors';
import { reconcileBooks } from './reconcileBooks';
import { releaseLeg } from './releaseLegs';
import { fakeChain } from './testing/fakeChain';
import { fakeStakeVenues } from './testing/stakeOnFakeChain';
import { BED_VENUE, useWalletMoneyDatabase } from './testing/walletMoneyBed';
import type { WalletMoneyBed } from './testing/walletMoneyBed';

// The books against a model of what the chain did, over random sequences of routes (with and
// without stake), withdrawals, venue exits, settlements (ok, short, long, failed, a foreign
// transaction, a late landing after expiry, twice at once), harvests, deposits outside our
// plans and price moves. After every step: liquid and the reservations equal the model, the
// position tracks exactly the shares our settled legs minted, every ledger invariant holds,
// and reconciliation reports exactly the money our plans did not put on the venue.

const M = 1_000_000n;
const { test: database, bed: newWallet } = useWalletMoneyDatabase();

type SettleMode = 'ok' | 'short' | 'long' | 'failed' | 'foreign' | 'late' | 'twice';
type Op =
  | { kind: 'route'; amount: bigint; stake: boolean }
  | { kind: 'withdraw'; amount: bigint }
  | { kind: 'unstake'; amount: bigint }
  | { kind: 'settle'; pick: number; mode: SettleMode }
  | { kind: 'harvest' }
  | { kind: 'outside'; amount: bigint }
  | { kind: 'price'; delta: bigint };

const amount = fc.bigInt({ min: 2n, max: 8n * M });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('route' as const), amount, stake: fc.boolean() }),
  fc.record({ kind: fc.constant('withdraw' as const), amount }),
  fc.record({ kind: fc.constant('unstake' as const), amount }),
  fc.record({
    kind: fc.constant('settle' as const),
    pick: fc.nat(),
    mode: fc.constantFrom<SettleMode>('ok', 'short', 'long', 'failed', 'foreign', 'late', 'twice'),
  }),
  fc.record({ kind: fc.constant('harvest' as const) }),
  fc.record({ kind: fc.constant('outside' as const), amount }),
  fc.record({
    kind: fc.constant('price' as const),
    delta: fc.bigInt({ min: -(M / 2n), max: 2n * M }),
  }),
);

interface Open {
  readonly planId: string;
  readonly kind: 'fund' | 'stake' | 'exit' | 'unstake';
  readonly amount: bigint;
}

interface Model {
  liquid: bigint;
  pendingIn: bigint;
  pendingOut: bigint;
  /** Shares our settled legs minted less those they burned. */
  shares: bigint;
  /** A venue leg of the wallet settled: the books know the position (reconciliation reads it). */
  touched: boolean;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

async function settleStep(
  bed: WalletMoneyBed,
  other: WalletMoneyBed,
  model: Model,
  leg: Open,
  mode: SettleMode,
): Promise<boolean> {
  const { chain } = bed;
  const delta = leg.amount / 4n + 1n;
  const moved =
    mode === 'short' ? leg.amount - delta : mode === 'long' ? leg.amount + delta : leg.amount;
  if (mode === 'foreign') {
    // Another wallet's real transaction, offered for this leg: refused, nothing moves.
    const theirs = await other.route(M);
    const tx = other.execute(theirs, M);
    await expect(bed.settle(leg.planId, tx)).rejects.toMatchObject({ code: 'RECEIPT_MISMATCH' });
    expect((await other.settle(theirs, tx)).status).toBe('confirmed');
    return false;
  }
  const sharesBefore = chain.sharesOf(bed.wallet, BED_VENUE);
  const tx = bed.execute(leg.planId, leg.amount, {
    amountMicros: moved,
    ok: mode !== 'failed',
    landed: mode !== 'late',
  });
  let released = false;
  if (mode === 'late') {
    expect((await bed.settle(leg.planId, tx)).status).toBe('pending');
    const found = await database().db.settlements.find({
      planId: leg.planId,
      legIndex: 0,
      txId: tx,
    });
    const expired = await releaseLeg(
      { db: database().db, now: new Date() },
      found?.leg ?? (undefined as never),
      'expired',
      'pending past the window',
    );
    expect(expired?.status).toBe('expired');
    released = true;
    if (leg.kind === 'fund' || leg.kind === 'stake') model.pendingIn -= leg.amount;
    if (leg.kind === 'exit') {
      model.pendingOut -= leg.amount;
      model.liquid += leg.amount;
    }
    chain.land(tx);
  }
  const results =
    mode === 'twice'
      ? await Promise.all([bed.settle(leg.planId, tx), bed.settle(leg.planId, tx)])
      : [await bed.settle(leg.planId, tx)];
  const result = results[0];
  if (mode === 'twice') expect(results.filter((entry) => entry.replay)).toHaveLength(1);
  const landedOk = (await findPlan(database().db, leg.planId))?.legs[0]?.status === 'confirmed';
  expect(result?.status).toBe(landedOk ? 'confirmed' : 'failed');
  const change = chain.sharesOf(bed.wallet, BED_VENUE) - sharesBefore;
  if (!landedOk) {
    if (!released && (leg.kind === 'fund' || leg.kind === 'stake')) model.pendingIn -= leg.amount;
    if (!released && leg.kind === 'exit') {
      model.pendingOut -= leg.amount;
      model.liquid += leg.amount;
    }
    return true;
  }
  if (leg.kind === 'fund') {
    if (!released) model.pendingIn -= leg.amount;
    model.liquid += moved;
  } else if (leg.kind === 'stake') {
    if (!released) model.pendingIn -= leg.amount;
    model.shares += change;
    model.touched = true;
  } else if (leg.kind === 'exit') {
    if (!released) {
      model.pendingOut -= leg.amount;
      model.liquid += leg.amount;
    }
    model.liquid -= min(moved, model.liquid);
  } else {
    // An exit burns the shares our plans minted first; beyond them, outside shares.
    model.shares -= min(-change, model.shares);
    model.touched = true;
  }
  return true;
}

it('the books follow the chain for any sequence, and reconciliation reports exactly the outside money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const chain = fakeChain();
      const bed = newWallet(chain);
      const other = newWallet(chain);
      const model: Model = {
        liquid: 0n,
        pendingIn: 0n,
        pendingOut: 0n,
        shares: 0n,
        touched: false,
      };
      const open: Open[] = [];
      for (const step of ops) {
        if (step.kind === 'route') {
          const planId = await bed.route(step.amount, step.stake);
          open.push({ planId, kind: step.stake ? 'stake' : 'fund', amount: step.amount });
          model.pendingIn += step.amount;
        } else if (step.kind === 'withdraw') {
          try {
            open.push({
              planId: await bed.withdraw(step.amount),
              kind: 'exit',
              amount: step.amount,
            });
            model.liquid -= step.amount;
            model.pendingOut += step.amount;
          } catch (error) {
            expect(error).toBeInstanceOf(EngineError);
            expect(step.amount > model.liquid).toBe(true);
          }
        } else if (step.kind === 'unstake') {
          const planId = await bed.venuePlan('withdraw', step.amount);
          open.push({ planId, kind: 'unstake', amount: step.amount });
        } else if (step.kind === 'settle' && open.length > 0) {
          const index = step.pick % open.length;
          const leg = open[index] as Open;
          if (await settleStep(bed, other, model, leg, step.mode)) open.splice(index, 1);
        } else if (step.kind === 'harvest') {
          const before = await bed.books();
          const gross = chain.valueOf(BED_VENUE, before.shares) - before.mark;
          const result = await bed.harvest();
          expect(BigInt(result.grossYieldMicros)).toBe(
            before.shares > 0n && gross > 0n ? gross : 0n,
          );
        } else if (step.kind === 'outside') {
          chain.depositOutside(bed.wallet, BED_VENUE, step.amount);
        } else if (step.kind === 'price') {
          // A loss only where the vault holds enough for it.
          const held = chain.valueOf(BED_VENUE, chain.sharesOf(bed.wallet, BED_VENUE));
          if (step.delta > 0n || held > 5n * M) chain.accrue(BED_VENUE, step.delta);
        }
        const books = await bed.books();
        expect(books.shares).toBe(model.shares);
        expect({
          liquid: books.liquid,
          pendingIn: books.pendingIn,
          pendingOut: books.pendingOut,
        }).toEqual({
          liquid: model.liquid,
          pendingIn: model.pendingIn,
          pendingOut: model.pendingOut,
        });
        expect(books.staked + books.feesRetained).toBe(books.mark);
      }
      // Whatever happened: every invariant holds and reconciliation sees exactly the money on
      // the venue our settled legs did not mint (outside deposits, landed-unsettled legs).
      expect((await verifyLedger(database().db)).problems).toEqual([]);
      const books = await bed.books();
      const held = chain.sharesOf(bed.wallet, BED_VENUE);
      expect(books.shares <= held).toBe(true);
      const report = await reconcileBooks({
        db: database().db,
        adapters: chain.adapters,
        venues: fakeStakeVenues,
        thresholdMicros: 1n,
        trigger: 'manual',
        now: () => new Date(),
      });
      const rows = await database().db.reconciliationDrift.findMany({
        where: { runId: report.runId, wallet: bed.wallet },
      });
      const untracked = rows.find((row) => row.kind === 'untracked')?.driftMicros ?? 0n;
      expect(untracked).toBe(
        model.touched
          ? chain.valueOf(BED_VENUE, held) - chain.valueOf(BED_VENUE, books.shares)
          : 0n,
      );
      expect(
        rows.filter((row) => row.kind !== 'untracked' && row.kind !== 'value_below_books'),
      ).toEqual([]);
    }),
    { numRuns: 20 },
  );
}, 300_000);
