import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { prepareExit } from './prepareExit';
import { prepareRoute } from './prepareRoute';
import { settleLeg } from './settleLeg';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import type { FakeChain } from './testing/fakeChain';

// Many writers on one wallet at once: settlements crediting liquid while withdrawals reserve it.
// The books must come out exact, never negative, never credited twice.

const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };
let test: TestDatabase;
let chain: FakeChain;
beforeAll(async () => {
  test = await createTestDatabase();
  chain = fakeChain();
});
afterAll(() => test.drop());

const context = () => ({
  db: test.db,
  adapters: chain.adapters,
  venues,
  opportunities: [],
  autoYieldVenueId: null,
});

async function route(wallet: string, amountMicros: bigint) {
  const plan = await prepareRoute({
    ...context(),
    address: wallet,
    input: { amountMicros, token: 'USDC', stake: false, chain: 'solana' },
    now: new Date(),
  });
  return { planId: plan.planId as string, amountMicros };
}

const settle = (planId: string, txId: string) =>
  settleLeg({ ...context(), planId, legIndex: 0, txId, now: new Date() });

async function balances(wallet: string) {
  const rows = await readBalancesOf(test.db, [wallet]);
  const of = (bucket: string) => rows.find((row) => row.bucket === bucket)?.balanceMicros ?? 0n;
  return { liquid: of('liquid'), pendingIn: of('pending_in'), pendingOut: of('pending_out') };
}

describe('one wallet, many writers', () => {
  it('64 withdrawals racing 32 settlements (each settled twice at once): exact, never negative', async () => {
    const wallet = fakeBase58();
    const M = 1_000_000n;
    // 32 M settled up front, 32 more routes whose settlements race the withdrawals.
    const early = await Promise.all(Array.from({ length: 32 }, () => route(wallet, M)));
    await Promise.all(early.map((plan) => settle(plan.planId, chain.execute(plan))));
    const late = await Promise.all(Array.from({ length: 32 }, () => route(wallet, M)));
    const lateTx = late.map((plan) => chain.execute(plan));

    const outcomes = await Promise.allSettled([
      ...late.flatMap((plan, index) => [
        settle(plan.planId, lateTx[index] as string),
        settle(plan.planId, lateTx[index] as string),
      ]),
      ...Array.from({ length: 64 }, () =>
        prepareExit({
          ...context(),
          address: wallet,
          amountMicros: M,
          chain: 'solana',
          now: new Date(),
        }),
      ),
    ]);
    const settlements = outcomes.slice(0, 64);
    const withdrawals = outcomes.slice(64);
    for (const outcome of settlements) expect(outcome.status).toBe('fulfilled');
    const replays = settlements.filter(
      (outcome) => outcome.status === 'fulfilled' && outcome.value.replay,
    ).length;
    expect(replays).toBe(32);
    const reserved = withdrawals.filter((outcome) => outcome.status === 'fulfilled').length;
    for (const outcome of withdrawals) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(EngineError);
        expect((outcome.reason as EngineError).code).toBe('INSUFFICIENT_LIQUID');
      }
    }
    expect(reserved).toBeGreaterThanOrEqual(32);
    expect(await balances(wallet)).toEqual({
      liquid: 64n * M - BigInt(reserved) * M,
      pendingIn: 0n,
      pendingOut: BigInt(reserved) * M,
    });
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  });

  it('a failed leg credits nothing and returns the pending amount', async () => {
    const wallet = fakeBase58();
    const plan = await route(wallet, 7_000_000n);
    const failed = await settle(plan.planId, chain.execute(plan, { ok: false }));
    expect(failed).toMatchObject({ status: 'failed', settledAmountMicros: null });
    expect(await balances(wallet)).toEqual({ liquid: 0n, pendingIn: 0n, pendingOut: 0n });
  });

  it('a transaction not final yet is recorded and moves nothing', async () => {
    const wallet = fakeBase58();
    const plan = await route(wallet, 2_000_000n);
    const unknown = fakeBase58(88);
    expect(await settle(plan.planId, unknown)).toMatchObject({ status: 'pending', txId: unknown });
    expect(await balances(wallet)).toEqual({ liquid: 0n, pendingIn: 2_000_000n, pendingOut: 0n });
  });
});
