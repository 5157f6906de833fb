import { prepareExit, prepareRoute, settleLeg } from '@yieldrouter/engine';
import type { ChainAdapters, VenueConfig } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import type { FakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { markLegSubmitted, readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { testJobDeps } from '../testing/keeperTestBed';
import type { KeeperJobDeps } from './keeperJobDeps';
import { SettlementWatchError, watchSettlements } from './watchSettlements';

// The settlement watch as a plain function (no queue): submitted legs settle from their
// receipts (a short fill settles what moved), legs pending past the window expire and release
// their reservation but stay confirmable (a late landing settles them), a transaction that is
// not the leg's is dropped from it, and a pass with nothing new changes nothing.

const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };
const HOUR = 3_600_000;
let test: TestDatabase;
let chain: FakeChain;
beforeAll(async () => {
  test = await createTestDatabase();
  chain = fakeChain();
});
afterAll(() => test.drop());

const deps = (adapters: ChainAdapters = chain.adapters, pageSize = 2): KeeperJobDeps =>
  testJobDeps(test, {
    adapters,
    venues,
    settlement: { ...testJobDeps(test, { adapters, venues }).settlement, pageSize },
  });

async function route(wallet: string, amountMicros: bigint) {
  const plan = await prepareRoute({
    db: test.db,
    adapters: chain.adapters,
    venues,
    opportunities: [],
    autoYieldVenueId: null,
    address: wallet,
    input: { amountMicros, token: 'USDC', stake: false, chain: 'solana' },
    now: new Date(),
  });
  return { planId: plan.planId as string, amountMicros };
}

/** The owner reported the leg's transaction while the chain still called it pending. */
const submit = (planId: string, txId: string, at = new Date()) =>
  markLegSubmitted(test.db, { planId, legIndex: 0, txId, now: at });

async function balances(wallet: string) {
  const rows = await readBalancesOf(test.db, [wallet]);
  const of = (bucket: string) => rows.find((row) => row.bucket === bucket)?.balanceMicros ?? 0n;
  return { liquid: of('liquid'), pendingIn: of('pending_in'), pendingOut: of('pending_out') };
}

const legStatus = async (planId: string) =>
  (await test.db.planLeg.findFirstOrThrow({ where: { planId, legIndex: 0 } })).status;

describe('watchSettlements', () => {
  it('settles, keeps and expires legs in pages; a late landing settles; a quiet pass changes nothing', async () => {
    const wallet = fakeBase58();
    const M = 1_000_000n;
    // A withdrawal needs liquid: one route settled up front.
    const funded = await route(wallet, 5n * M);
    await settleLeg({
      db: test.db,
      adapters: chain.adapters,
      venues,
      planId: funded.planId,
      legIndex: 0,
      txId: chain.execute(funded),
      now: new Date(),
    });

    const landed = await Promise.all([route(wallet, M), route(wallet, M), route(wallet, M)]);
    for (const plan of landed) await submit(plan.planId, chain.execute(plan));
    const short = await route(wallet, M);
    await submit(short.planId, chain.execute(short, { amountMicros: M - 1n }));
    const waiting = await route(wallet, M);
    await submit(waiting.planId, fakeBase58(88));
    const exit = await prepareExit({
      db: test.db,
      adapters: chain.adapters,
      address: wallet,
      amountMicros: 2n * M,
      chain: 'solana',
      now: new Date(),
    });
    const exitPlan = exit.planId as string;
    // The owner's withdrawal is signed and sent, but the chain does not run it for hours.
    const exitTx = chain.execute({ planId: exitPlan, amountMicros: 2n * M }, { landed: false });
    await submit(exitPlan, exitTx, new Date(Date.now() - 2 * HOUR));
    expect(await balances(wallet)).toEqual({
      liquid: 3n * M,
      pendingIn: 5n * M,
      pendingOut: 2n * M,
    });

    // The withdrawal expires in the first pass and is watched as released in the second.
    expect(await watchSettlements(deps())).toEqual({
      checked: 7,
      confirmed: 4,
      failed: 0,
      pending: 2,
      expired: 1,
      dropped: 0,
      unavailable: 0,
      errors: 0,
    });
    for (const plan of landed) expect(await legStatus(plan.planId)).toBe('confirmed');
    const shortLeg = await test.db.planLeg.findFirstOrThrow({
      where: { planId: short.planId, legIndex: 0 },
    });
    expect(shortLeg).toMatchObject({ status: 'confirmed', settledAmountMicros: M - 1n });
    expect(shortLeg.reviewReason).toMatch(/^short fill: the chain moved 999999 micros/);
    expect(await legStatus(waiting.planId)).toBe('submitted');
    const expired = await test.db.planLeg.findFirstOrThrow({
      where: { planId: exitPlan, legIndex: 0 },
    });
    expect(expired.status).toBe('expired');
    expect(expired.txId).toBe(exitTx);
    expect(expired.failureReason).toMatch(/^expired: solana still reports .* pending 120 min/);
    // Three credited, the short one credited what moved (the rest of its reservation back to
    // external), the expired withdrawal's reservation back to liquid.
    expect(await balances(wallet)).toEqual({
      liquid: 9n * M - 1n,
      pendingIn: M,
      pendingOut: 0n,
    });
    expect((await verifyLedger(test.db)).problems).toEqual([]);

    const entries = await test.db.journalEntry.count();
    const events = await test.db.outboxEvent.count();
    expect(await watchSettlements(deps())).toMatchObject({ checked: 2, pending: 2 });
    expect(await test.db.journalEntry.count()).toBe(entries);
    expect(await test.db.outboxEvent.count()).toBe(events);

    // The chain runs the withdrawal at last: the expired leg settles from liquid.
    chain.land(exitTx);
    expect(await watchSettlements(deps())).toMatchObject({ checked: 2, confirmed: 1, pending: 1 });
    expect(await legStatus(exitPlan)).toBe('confirmed');
    expect(await balances(wallet)).toEqual({
      liquid: 7n * M - 1n,
      pendingIn: M,
      pendingOut: 0n,
    });
    expect((await verifyLedger(test.db)).problems).toEqual([]);

    const released = await test.db.outboxEvent.findMany({
      where: { wallet, payload: { path: ['planId'], equals: exitPlan } },
      orderBy: { seq: 'asc' },
    });
    expect(released.map((event) => event.type)).toEqual([
      'position.updated',
      'withdraw.settled',
      'position.updated',
    ]);
  });

  it("drops a transaction that is not the leg's, leaving both legs free to settle", async () => {
    const wallet = fakeBase58();
    const mine = await route(wallet, 1_000_000n);
    const theirs = await route(fakeBase58(), 3_000_000n);
    // Their real transaction, recorded on my leg.
    const theirTx = chain.execute(theirs);
    await submit(mine.planId, theirTx);
    expect(await watchSettlements(deps(chain.adapters, 100))).toMatchObject({ dropped: 1 });
    expect(await legStatus(mine.planId)).toBe('unsigned');
    const settled = await settleLeg({
      db: test.db,
      adapters: chain.adapters,
      venues,
      planId: theirs.planId,
      legIndex: 0,
      txId: theirTx,
      now: new Date(),
    });
    expect(settled).toMatchObject({ status: 'confirmed', settledAmountMicros: '3000000' });
  });

  it('an unreadable chain expires nothing and fails the run with its counts', async () => {
    const wallet = fakeBase58();
    const plan = await route(wallet, 1_000_000n);
    await submit(plan.planId, fakeBase58(88), new Date(Date.now() - 2 * HOUR));
    const unreadable: ChainAdapters = {
      ...chain.adapters,
      solana: {
        ...chain.adapters.solana,
        readReceipt: async () => ({
          status: 'unavailable',
          reason: 'rpc_timeout',
          detail: 'the RPC did not answer in time',
        }),
      },
    };
    const run = watchSettlements(deps(unreadable, 100));
    await expect(run).rejects.toThrow(SettlementWatchError);
    // This leg and the one the first test left pending.
    await expect(run).rejects.toMatchObject({ counts: { unavailable: 2, expired: 0 } });
    expect(await legStatus(plan.planId)).toBe('submitted');
  });
});
