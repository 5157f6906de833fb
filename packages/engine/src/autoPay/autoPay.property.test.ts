import fc from 'fast-check';
import { readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import type { AutoPayRunDocument } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { cancelPlan } from '../wallet/releaseLegs';
import { settleLeg } from '../wallet/settleLeg';
import { fakeBase58 } from '../wallet/testing/fakeChain';
import type { FakeChain } from '../wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
} from '../wallet/testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from '../wallet/testing/useFakeStakeDatabase';
import { runAutoPay } from './runAutoPay';
import { harvestOnFakeChain, stakedAutoPayWallet } from './testing/autoPayOnFakeChain';

// Random sequences of yield (and losses) on a staked position, harvests, auto-pay runs the owner
// signs and settles, and runs the owner cancels, against a model: every payee is paid exactly
// floor(pool × weightBps / 10000) where the pool is Σ harvest net × percentage less what earlier
// runs paid; auto-pay never takes more out of the venue than harvest booked for it (principal
// is never paid); a run the position cannot cover above its principal is refused; the books
// verify clean and hold nothing in auto_pay once every transfer settled.

const { test, opportunities } = useFakeStakeDatabase();

type Op =
  { kind: 'accrue'; amount: bigint } | { kind: 'harvest' } | { kind: 'run'; cancel: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('accrue' as const),
      amount: fc.bigInt({ min: -2_000_000n, max: 3_000_000n }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('harvest' as const) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('run' as const), cancel: fc.boolean() }),
    weight: 2,
  },
);

// Always tried first: a run paid and settled, one cancelled and run again, then a loss the
// books have not seen that leaves less above principal than the next payout (refused).
const example: [number, number[], bigint, Op[]] = [
  100,
  [6_000, 4_000],
  10_000_000n,
  [
    { kind: 'accrue', amount: 1_000_000n },
    { kind: 'harvest' },
    { kind: 'run', cancel: true },
    { kind: 'run', cancel: false },
    { kind: 'accrue', amount: 3_000_000n },
    { kind: 'harvest' },
    { kind: 'accrue', amount: -2_500_000n },
    { kind: 'run', cancel: false },
  ],
];

/** 1 to 4 weights summing to 10000. */
const weights = fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { maxLength: 3 }).map((cuts) => {
  const points = [0, ...cuts.sort((a, b) => a - b), 10_000];
  return points.slice(1).map((point, index) => point - (points[index] ?? 0));
});

async function settleRun(chain: FakeChain, plan: AutoPayRunDocument) {
  const planId = plan.planId as string;
  const common = { db: test().db, venues };
  const settle = (legIndex: number, txId: string) =>
    settleLeg({ ...common, adapters: chain.adapters, planId, legIndex, txId, now: new Date() });
  const legs = plan.legs ?? [];
  const withdraw = legs[0];
  if (!withdraw || withdraw.action !== 'withdraw') throw new Error('no withdraw leg first');
  const out = await settle(
    0,
    chain.execute({ planId, amountMicros: BigInt(withdraw.amountMicros) }),
  );
  expect(out).toMatchObject({ status: 'confirmed', settledAmountMicros: withdraw.amountMicros });
  const paid = plan.split.payouts.filter((payout) => payout.skipped === null);
  expect(legs.slice(1).map((leg) => leg.action)).toEqual(paid.map(() => 'transfer'));
  for (const [index, payout] of paid.entries()) {
    const settled = await settle(index + 1, chain.transfer(planId, payout.address));
    expect(settled).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: payout.amountMicros,
    });
  }
}

/** How the sequences went: the example alone settles, cancels and is refused. */
const seen = { settled: 0, cancelled: 0, principal: 0, nothing: 0 };

it('pays payees exactly their share of harvested yield, never principal', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 100 }),
      weights,
      fc.bigInt({ min: 1_000_000n, max: 50_000_000n }),
      fc.array(op, { minLength: 1, maxLength: 12 }),
      async (percentage, parts, principal, ops) => {
        const db = test().db;
        const payees = parts.map((weightBps, index) => ({
          payeeId: `payee-${index}`,
          address: fakeBase58(),
          weightBps,
        }));
        const { chain, wallet } = await stakedAutoPayWallet({
          db,
          opportunities: opportunities(),
          config: { enabled: true, percentage, payees, trigger: 'manual' },
          principalMicros: principal,
        });
        const model = { poolCentimicros: 0n, paid: 0n, harvestedForPayees: 0n };
        const staked = async () =>
          (await readBalancesOf(db, [wallet])).find((row) => row.bucket.startsWith('staked:'))
            ?.balanceMicros ?? 0n;

        for (const step of ops) {
          if (step.kind === 'accrue') {
            const held = chain.valueOf(VENUE, chain.sharesOf(wallet, VENUE));
            // A loss never takes the vault below one micro per holder.
            chain.accrue(VENUE, step.amount < 0n && -step.amount >= held ? 1n - held : step.amount);
          } else if (step.kind === 'harvest') {
            const result = await harvestOnFakeChain(db, chain, wallet);
            const net = BigInt(result.netYieldMicros);
            model.poolCentimicros += net * BigInt(percentage);
            model.harvestedForPayees += net * BigInt(percentage);
          } else {
            const before = await staked();
            let plan: AutoPayRunDocument;
            try {
              plan = await runAutoPay({
                db,
                adapters: chain.adapters,
                venues,
                address: wallet,
                target: {},
                now: new Date(),
              });
            } catch (error) {
              if (!(error instanceof EngineError)) throw error;
              expect(['AUTO_PAY_NOTHING_PAYABLE', 'AUTO_PAY_WOULD_TOUCH_PRINCIPAL']).toContain(
                error.code,
              );
              if (error.code === 'AUTO_PAY_WOULD_TOUCH_PRINCIPAL') seen.principal += 1;
              if (error.code === 'AUTO_PAY_NOTHING_PAYABLE') {
                seen.nothing += 1;
                // Nothing payable means every share rounds to 0 micros.
                for (const payee of payees) {
                  expect((model.poolCentimicros * BigInt(payee.weightBps)) / 1_000_000n).toBe(0n);
                }
              }
              continue;
            }
            // Exactly floor(pool × weightBps / 10000) each (no dust, no cap configured).
            expect(plan.split.payouts.map((payout) => BigInt(payout.amountMicros))).toEqual(
              payees.map((payee) => (model.poolCentimicros * BigInt(payee.weightBps)) / 1_000_000n),
            );
            const amount = BigInt(plan.split.amountMicros);
            // Principal guard: the payout fits above principal in the books and on chain.
            expect(amount <= before - principal).toBe(true);
            if (step.cancel) {
              seen.cancelled += 1;
              await cancelPlan({
                db,
                planId: plan.planId as string,
                allowWallet: () => true,
                now: new Date(),
              });
              continue;
            }
            await settleRun(chain, plan);
            seen.settled += 1;
            model.poolCentimicros -= 100n * amount;
            model.paid += amount;
          }
        }
        // Auto-pay never took out more than harvest booked for the payees.
        expect(model.paid * 100n <= model.harvestedForPayees).toBe(true);
        const buckets = await readBalancesOf(db, [wallet]);
        expect(buckets.find((row) => row.bucket === 'auto_pay')?.balanceMicros ?? 0n).toBe(0n);
      },
    ),
    { numRuns: 30, examples: [example] },
  );
  expect(seen.settled).toBeGreaterThan(0);
  expect(seen.cancelled).toBeGreaterThan(0);
  expect(seen.principal).toBeGreaterThan(0);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});
