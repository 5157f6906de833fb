import { findPlan, readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import type { PositionReading } from '@yieldrouter/schemas';
import { cancelPlan } from './releaseLegs';
import { releaseLeg } from './releaseLegs';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import { BED_VENUE, useWalletMoneyDatabase } from './testing/walletMoneyBed';
import type { WalletMoneyBed } from './testing/walletMoneyBed';

// The reproduced ways the books drifted from the chain (issue "The books agree with the chain"),
// each against the fake chain and real PostgreSQL: the books must hold what the chain did.

const M = 1_000_000n;
const { test: database, bed } = useWalletMoneyDatabase();

/** A settled stake of `amount` through a route with stake. */
async function stake(wallet: WalletMoneyBed, amount: bigint) {
  const planId = await wallet.route(amount, true);
  const settled = await wallet.settle(planId, wallet.execute(planId, amount));
  expect(settled.status).toBe('confirmed');
  return planId;
}

/** Liquid in the router for the wallet. */
async function fund(wallet: WalletMoneyBed, amount: bigint) {
  const planId = await wallet.route(amount);
  expect((await wallet.settle(planId, wallet.execute(planId, amount))).status).toBe('confirmed');
}

describe('1. harvest never skims principal', () => {
  it('an outside deposit into the same venue is untracked, never yield', async () => {
    const wallet = bed();
    await stake(wallet, 100n * M);
    wallet.chain.depositOutside(wallet.wallet, BED_VENUE, 50n * M);
    const result = await wallet.harvest();
    expect(result).toMatchObject({ mode: 'no_op_harvest', grossYieldMicros: '0' });
    expect(result.positions[0]).toMatchObject({
      outcome: 'no_yield',
      untrackedMicros: String(50n * M),
    });
    expect((await wallet.books()).staked).toBe(100n * M);
  });

  it('a landed deposit leg older than any look-back is untracked until it settles, then principal', async () => {
    const wallet = bed();
    await stake(wallet, 100n * M);
    const late = await wallet.venuePlan('deposit', 50n * M);
    const tx = wallet.execute(late, 50n * M);
    // Age the plan past the old 24 h look-back.
    await database().db.$executeRaw`
      UPDATE plans SET created_at = now() - interval '3 days' WHERE id = ${late}`;
    expect((await wallet.harvest()).grossYieldMicros).toBe('0');
    expect((await wallet.settle(late, tx)).status).toBe('confirmed');
    expect(await wallet.books()).toMatchObject({ staked: 150n * M, mark: 150n * M });
    expect(wallet.chain.valueOf(BED_VENUE, wallet.chain.sharesOf(wallet.wallet, BED_VENUE))).toBe(
      150n * M,
    );
    expect((await wallet.harvest()).grossYieldMicros).toBe('0');
  });

  it('fees booked by a harvest leave the basis when the owner takes them out', async () => {
    const wallet = bed();
    await stake(wallet, 100n * M);
    wallet.chain.accrue(BED_VENUE, 10n * M);
    const harvested = await wallet.harvest();
    const gross = BigInt(harvested.grossYieldMicros);
    const fee = BigInt(harvested.protocolFeeMicros);
    expect(gross).toBeGreaterThan(9n * M);
    expect(await wallet.books()).toMatchObject({
      staked: 100n * M + gross - fee,
      feesRetained: fee,
    });
    // The owner exits every share: staked and the retained fees both leave the books.
    const all = wallet.chain.valueOf(BED_VENUE, wallet.chain.sharesOf(wallet.wallet, BED_VENUE));
    const exit = await wallet.venuePlan('withdraw', all);
    expect((await wallet.settle(exit, wallet.execute(exit, all))).status).toBe('confirmed');
    expect(await wallet.books()).toMatchObject({
      staked: 0n,
      shares: 0n,
      mark: 0n,
      feesRetained: 0n,
    });
  });
});

describe('2. harvest never races settlement', () => {
  it('an unstake that settles while the value is read makes the harvest measure again', async () => {
    const chain = fakeChain();
    const wallet = bed(chain);
    await stake(wallet, 100n * M);
    chain.accrue(BED_VENUE, 10n * M);
    const unstake = await wallet.venuePlan('withdraw', 50n * M);
    const tx = wallet.execute(unstake, 50n * M);
    // The settlement lands between the harvest's chain read and its booking.
    const read = chain.adapters.solana.readPosition;
    let raced = false;
    chain.adapters.solana.readPosition = async (...args): Promise<PositionReading> => {
      const reading = await read(...args);
      if (!raced) {
        raced = true;
        expect((await wallet.settle(unstake, tx)).status).toBe('confirmed');
      }
      return reading;
    };
    const result = await wallet.harvest();
    chain.adapters.solana.readPosition = read;
    // The exit realised the yield its share of the position had earned; nothing twice.
    expect(result.grossYieldMicros).toBe('0');
    const books = await wallet.books();
    // The mark follows the exit's own price: within the vault's rounding of the chain's value.
    const onChain = chain.valueOf(BED_VENUE, books.shares);
    expect(books.mark - onChain <= 2n && onChain - books.mark <= 2n).toBe(true);
    expect(books.staked + books.feesRetained).toBe(books.mark);
  });
});

describe('3. nobody can block a harvest', () => {
  it('an unsigned public plan for the wallet does not stop its harvest', async () => {
    const wallet = bed();
    await stake(wallet, 20n * M);
    await wallet.venuePlan('deposit', 5n * M);
    await wallet.venuePlan('withdraw', 5n * M);
    wallet.chain.accrue(BED_VENUE, M);
    const result = await wallet.harvest();
    expect(result.outcome).toBe('harvested');
    expect(BigInt(result.grossYieldMicros)).toBeGreaterThan(0n);
  });
});

describe("4. only the leg's own transaction moves it", () => {
  it("another wallet's transaction is refused; the leg and the txId stay untouched", async () => {
    const chain = fakeChain();
    const mine = bed(chain);
    const theirs = bed(chain);
    const myPlan = await mine.route(10n * M);
    const theirPlan = await theirs.route(10n * M);
    const theirTx = theirs.execute(theirPlan, 10n * M);
    await expect(mine.settle(myPlan, theirTx)).rejects.toMatchObject({ code: 'RECEIPT_MISMATCH' });
    expect((await findPlan(database().db, myPlan))?.legs[0]).toMatchObject({
      status: 'unsigned',
      txId: null,
    });
    expect(await theirs.settle(theirPlan, theirTx)).toMatchObject({ status: 'confirmed' });
    expect(await theirs.books()).toMatchObject({ liquid: 10n * M, pendingIn: 0n });
    expect(await mine.books()).toMatchObject({ liquid: 0n, pendingIn: 10n * M });
  });

  it('a failed transaction of another plan fails nothing', async () => {
    const chain = fakeChain();
    const mine = bed(chain);
    const myPlan = await mine.route(3n * M);
    const otherPlan = await mine.route(4n * M);
    const failed = mine.execute(otherPlan, 4n * M, { ok: false });
    await expect(mine.settle(myPlan, failed)).rejects.toMatchObject({ code: 'RECEIPT_MISMATCH' });
    expect((await findPlan(database().db, myPlan))?.legs[0]?.status).toBe('unsigned');
    expect(await mine.settle(otherPlan, failed)).toMatchObject({ status: 'failed' });
  });

  it('a transaction another leg only held while pending is taken back by its own leg', async () => {
    const chain = fakeChain();
    const mine = bed(chain);
    const theirs = bed(chain);
    const myPlan = await mine.route(M);
    const theirPlan = await theirs.route(2n * M);
    const theirTx = theirs.execute(theirPlan, 2n * M, { landed: false });
    // Still pending: my leg records it (nobody can tell yet whose it is).
    expect(await mine.settle(myPlan, theirTx)).toMatchObject({ status: 'pending' });
    chain.land(theirTx);
    expect(await theirs.settle(theirPlan, theirTx)).toMatchObject({ status: 'confirmed' });
    expect((await findPlan(database().db, myPlan))?.legs[0]).toMatchObject({
      status: 'unsigned',
      txId: null,
    });
  });
});

describe('5. a short or long fill books what moved', () => {
  it('quote 10, chain moved 9: 9 credited, flagged, the rest of the reservation released', async () => {
    const wallet = bed();
    const planId = await wallet.route(10n * M);
    const settled = await wallet.settle(
      planId,
      wallet.execute(planId, 10n * M, { amountMicros: 9n * M }),
    );
    expect(settled).toMatchObject({
      status: 'confirmed',
      quotedAmountMicros: String(10n * M),
      settledAmountMicros: String(9n * M),
    });
    expect(settled.reviewReason).toMatch(/^short fill: the chain moved 9000000 micros/);
    expect(await wallet.books()).toMatchObject({ liquid: 9n * M, pendingIn: 0n });
  });

  it('a long fill into a venue credits all of it, shares included', async () => {
    const wallet = bed();
    const planId = await wallet.route(10n * M, true);
    const settled = await wallet.settle(
      planId,
      wallet.execute(planId, 10n * M, { amountMicros: 11n * M }),
    );
    expect(settled.reviewReason).toMatch(/^long fill/);
    expect(await wallet.books()).toMatchObject({ staked: 11n * M, mark: 11n * M, pendingIn: 0n });
    expect((await wallet.books()).shares).toBe(wallet.chain.sharesOf(wallet.wallet, BED_VENUE));
  });
});

describe('6. expiry follows the chain', () => {
  it('an expired withdrawal that lands late settles: liquid pays what the chain paid', async () => {
    const wallet = bed();
    await fund(wallet, 5n * M);
    const exit = await wallet.withdraw(5n * M);
    const tx = wallet.execute(exit, 5n * M, { landed: false });
    expect(await wallet.settle(exit, tx)).toMatchObject({ status: 'pending' });
    const found = await database().db.settlements.find({ planId: exit, legIndex: 0, txId: tx });
    const expired = await releaseLeg(
      { db: database().db, now: new Date() },
      found?.leg ?? (undefined as never),
      'expired',
      'pending past the window',
    );
    expect(expired).toMatchObject({ status: 'expired' });
    expect(await wallet.books()).toMatchObject({ liquid: 5n * M, pendingOut: 0n });
    wallet.chain.land(tx);
    expect(await wallet.settle(exit, tx)).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: String(5n * M),
    });
    expect(await wallet.books()).toMatchObject({ liquid: 0n, pendingOut: 0n });
  });
});

describe('7. an exit larger than the staked balance', () => {
  it('a full exit including retained fees empties the books as it empties the chain', async () => {
    const wallet = bed();
    await stake(wallet, 100n * M);
    wallet.chain.accrue(BED_VENUE, 10n * M);
    await wallet.harvest();
    wallet.chain.accrue(BED_VENUE, 2n * M);
    const all = wallet.chain.valueOf(BED_VENUE, wallet.chain.sharesOf(wallet.wallet, BED_VENUE));
    expect(all).toBeGreaterThan((await wallet.books()).staked);
    const exit = await wallet.venuePlan('withdraw', all);
    expect(await wallet.settle(exit, wallet.execute(exit, all))).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: String(all),
    });
    expect(wallet.chain.sharesOf(wallet.wallet, BED_VENUE)).toBe(0n);
    expect(await wallet.books()).toMatchObject({ staked: 0n, shares: 0n, mark: 0n });
  });
});

describe('8. unsigned legs do not hold reservations for good', () => {
  it('the owner cancels an unsigned withdrawal: liquid is back at once; a late landing still settles', async () => {
    const wallet = bed();
    await fund(wallet, 6n * M);
    const exit = await wallet.withdraw(6n * M);
    await expect(wallet.withdraw(M)).rejects.toMatchObject({ code: 'INSUFFICIENT_LIQUID' });
    const cancelled = await cancelPlan({
      db: database().db,
      planId: exit,
      allowWallet: (owner) => owner === wallet.wallet,
      now: new Date(),
    });
    expect(cancelled.legs[0]).toMatchObject({ status: 'cancelled' });
    expect(await wallet.books()).toMatchObject({ liquid: 6n * M, pendingOut: 0n });
    // Cancelling again answers the plan as it stands; another wallet's key cannot.
    const again = cancelPlan({
      db: database().db,
      planId: exit,
      allowWallet: () => false,
      now: new Date(),
    });
    await expect(again).rejects.toMatchObject({ code: 'WALLET_SCOPE' });
    // The owner had signed it after all: it lands and settles from liquid.
    const tx = wallet.execute(exit, 6n * M);
    expect(await wallet.settle(exit, tx)).toMatchObject({ status: 'confirmed' });
    expect(await wallet.books()).toMatchObject({ liquid: 0n, pendingOut: 0n });
  });

  it('a plan with a transaction cannot be cancelled', async () => {
    const wallet = bed();
    const planId = await wallet.route(M);
    await wallet.settle(planId, wallet.execute(planId, M, { landed: false }));
    await expect(
      cancelPlan({
        db: database().db,
        planId,
        allowWallet: () => true,
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: 'PLAN_NOT_CANCELLABLE' });
  });
});

it('positions hold exactly the shares our settled legs minted', async () => {
  const wallet = bed();
  await stake(wallet, 7n * M);
  wallet.chain.depositOutside(wallet.wallet, BED_VENUE, 3n * M);
  const [position] = await readTrackedPositions(database().db, [wallet.wallet]);
  expect(position?.shares).toBe(7n * M);
  expect(wallet.chain.sharesOf(wallet.wallet, BED_VENUE)).toBe(10n * M);
  expect(fakeBase58()).not.toBe(wallet.wallet);
});

it('leaves a ledger that verifies clean', async () => {
  expect((await verifyLedger(database().db)).problems).toEqual([]);
});
