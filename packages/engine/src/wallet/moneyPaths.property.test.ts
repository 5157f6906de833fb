import fc from 'fast-check';
import { findSettlementLeg, readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import { EngineError } from '../errors';
import { runAutoPay } from '../autoPay/runAutoPay';
import { harvestOnFakeChain, stakedOnePayeeWallet } from '../autoPay/testing/autoPayOnFakeChain';
import { releaseLeg } from './releaseLegs';
import { settleLeg } from './settleLeg';
import { NATIVE_ASSET } from './swapBooking';
import type { FakeChain } from './testing/fakeChain';
import { FAKE_STAKE_VENUE as VENUE, fakeStakeVenues as venues } from './testing/stakeOnFakeChain';
import {
  FAKE_USDC,
  FAKE_WSOL,
  WSOL_ASSET,
  creditLiquid,
  storeGasSponsorPlan,
  storeSwapPlan,
  swapChain,
} from './testing/swapsOnFakeChain';
import type { SwapChain } from './testing/swapsOnFakeChain';
import { useFakeStakeDatabase } from './testing/useFakeStakeDatabase';

// Issue 40: harvests, auto-pay runs, their withdraw and payout settlements, payout expiries,
// swaps both ways and gas top-ups (swap, then unwrap), in random orders and some of them two at
// a time. After every step the books hold in the owner's wallet exactly what a simple model of
// the chain says it holds (USDC = liquid + auto_pay, wrapped SOL, native SOL), the payee has
// received what the books paid, and verifyLedger is clean: nothing lost or doubled.

const { test, opportunities } = useFakeStakeDatabase();
const M = 1_000_000n;
/** Lamports per USDC micro in this test's market. */
const PRICE = 1_000n;

type Single =
  | { readonly kind: 'buy'; readonly micros: bigint }
  | { readonly kind: 'sell'; readonly part: number }
  | { readonly kind: 'topUp'; readonly micros: bigint }
  | { readonly kind: 'withdraw' }
  | { readonly kind: 'payout' }
  | { readonly kind: 'expire' };
type Op =
  | Single
  | { readonly kind: 'yield'; readonly micros: bigint }
  | { readonly kind: 'run' }
  | { readonly kind: 'pair'; readonly a: Single; readonly b: Single };

const single: fc.Arbitrary<Single> = fc.oneof(
  fc.record({ kind: fc.constant('buy' as const), micros: fc.bigInt({ min: 1n, max: 8n * M }) }),
  fc.record({ kind: fc.constant('sell' as const), part: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('topUp' as const), micros: fc.bigInt({ min: 1n, max: 3n * M }) }),
  fc.constant({ kind: 'withdraw' as const }),
  fc.constant({ kind: 'payout' as const }),
  fc.constant({ kind: 'expire' as const }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: single, weight: 5 },
  {
    arbitrary: fc.record({
      kind: fc.constant('yield' as const),
      micros: fc.bigInt({ min: 1n * M, max: 6n * M }),
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'run' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('pair' as const), a: single, b: single }), weight: 2 },
);

// Always tried first: a payout expired after its withdraw settled, paid by the next run from
// liquid, beside a buy and its sell racing, and a top-up racing the payout.
const example: Op[] = [
  { kind: 'yield', micros: 5n * M },
  { kind: 'run' },
  { kind: 'withdraw' },
  { kind: 'expire' },
  { kind: 'run' },
  { kind: 'pair', a: { kind: 'buy', micros: 4n * M }, b: { kind: 'topUp', micros: M } },
  { kind: 'pair', a: { kind: 'payout' }, b: { kind: 'sell', part: 2 } },
];

/** The owner's wallet and the payee on the chain. */
interface ChainModel {
  usdc: bigint;
  wsol: bigint;
  native: bigint;
  paid: bigint;
}

/** An auto-pay run and where its legs stand. */
interface Run {
  readonly planId: string;
  readonly withdrawMicros: bigint | null;
  readonly payoutMicros: bigint;
  readonly payoutLeg: number;
  /** `settling`: its settlement runs beside this step's pair (the payout waits for it). */
  withdraw: 'open' | 'settling' | 'settled' | null;
  payout: 'open' | 'settled' | 'expired';
}

interface World {
  readonly wallet: string;
  readonly payee: string;
  readonly chain: FakeChain;
  readonly swaps: SwapChain;
  readonly model: ChainModel;
  readonly runs: Run[];
}

/** A step ready to run: what it does on the books, and what the chain did (applied after). */
interface Step {
  readonly run: () => Promise<void>;
  readonly apply: (model: ChainModel) => void;
}

const settle = (world: World, planId: string, legIndex: number, txId: string) =>
  settleLeg({
    db: test().db,
    adapters: world.swaps.adapters,
    venues,
    planId,
    legIndex,
    txId,
    now: new Date(),
  });

/**
 * Chooses what a step does from the state before it (and the steps beside it, which already
 * took their part of `spare`): undefined when there is nothing to do.
 */
function prepare(world: World, step: Single, spare: ChainModel): Step | undefined {
  const db = test().db;
  switch (step.kind) {
    case 'buy': {
      if (spare.usdc < step.micros) return undefined;
      spare.usdc -= step.micros;
      const out = step.micros * PRICE;
      return {
        run: async () => {
          const plan = await storeSwapPlan(db, world.wallet, FAKE_USDC, FAKE_WSOL, step.micros);
          await settle(world, plan, 0, world.swaps.swap(plan, step.micros, out));
        },
        apply: (model) => {
          model.usdc -= step.micros;
          model.wsol += out;
        },
      };
    }
    case 'sell': {
      const amountIn = spare.wsol / BigInt(step.part);
      if (amountIn < PRICE) return undefined;
      spare.wsol -= amountIn;
      const out = amountIn / PRICE;
      return {
        run: async () => {
          const plan = await storeSwapPlan(db, world.wallet, FAKE_WSOL, FAKE_USDC, amountIn);
          await settle(world, plan, 0, world.swaps.swap(plan, amountIn, out));
        },
        apply: (model) => {
          model.wsol -= amountIn;
          model.usdc += out;
        },
      };
    }
    case 'topUp': {
      if (spare.usdc < step.micros) return undefined;
      spare.usdc -= step.micros;
      const lamports = step.micros * PRICE;
      return {
        run: async () => {
          const plan = await storeGasSponsorPlan(db, world.wallet, step.micros);
          await settle(world, plan, 0, world.swaps.swap(plan, step.micros, lamports));
          await settle(world, plan, 1, world.swaps.unwrap(plan, lamports));
        },
        apply: (model) => {
          model.usdc -= step.micros;
          model.native += lamports;
        },
      };
    }
    case 'withdraw': {
      const run = world.runs.find((entry) => entry.withdraw === 'open');
      if (!run || run.withdrawMicros === null) return undefined;
      run.withdraw = 'settling';
      const amount = run.withdrawMicros;
      return {
        run: async () => {
          const txId = world.chain.execute({ planId: run.planId, amountMicros: amount });
          expect((await settle(world, run.planId, 0, txId)).status).toBe('confirmed');
        },
        apply: (model) => {
          model.usdc += amount;
          run.withdraw = 'settled';
        },
      };
    }
    case 'payout': {
      // A payout pays from what its run's withdraw leg brought out: that leg settled first (the
      // engine refuses it before, AUTO_PAY_WITHDRAW_NOT_SETTLED), never beside it in a pair.
      const run = world.runs.find(
        (entry) =>
          entry.payout === 'open' && entry.withdraw !== 'open' && entry.withdraw !== 'settling',
      );
      if (!run || spare.usdc < run.payoutMicros) return undefined;
      spare.usdc -= run.payoutMicros;
      run.payout = 'settled';
      return {
        run: async () => {
          const txId = world.chain.transfer(run.planId, world.payee);
          expect((await settle(world, run.planId, run.payoutLeg, txId)).status).toBe('confirmed');
        },
        apply: (model) => {
          model.usdc -= run.payoutMicros;
          model.paid += run.payoutMicros;
        },
      };
    }
    case 'expire': {
      const run = world.runs.find((entry) => entry.payout === 'open');
      if (!run) return undefined;
      run.payout = 'expired';
      return {
        run: async () => {
          // A release computed from a balance that moved meanwhile (its withdraw settling beside
          // it) writes nothing: the keeper's next expiry run reads the leg again, as here.
          for (let attempt = 1; ; attempt += 1) {
            const leg = await findSettlementLeg(db, run.planId, run.payoutLeg);
            if (!leg) throw new Error('no payout leg');
            const released = await releaseLeg(
              { db: test().db, now: new Date() },
              leg,
              'expired',
              'unsigned past its TTL',
            );
            if (released || attempt >= 3) {
              expect(released?.status).toBe('expired');
              return;
            }
          }
        },
        apply: () => undefined,
      };
    }
  }
}

/** What the sequences did (the property must not pass by doing nothing). */
const seen = { pairs: 0, runs: 0, fromReturned: 0, payouts: 0, expired: 0, swaps: 0, topUps: 0 };

async function autoPayRun(world: World) {
  try {
    const plan = await runAutoPay({
      db: test().db,
      adapters: world.swaps.adapters,
      venues,
      address: world.wallet,
      target: {},
      now: new Date(),
    });
    const legs = plan.legs ?? [];
    const withdraw = legs[0]?.action === 'withdraw' ? legs[0] : undefined;
    const payoutLeg = withdraw ? 1 : 0;
    seen.runs += 1;
    if (!withdraw) seen.fromReturned += 1;
    world.runs.push({
      planId: plan.planId as string,
      withdrawMicros: withdraw ? BigInt(withdraw.amountMicros) : null,
      payoutMicros: BigInt(legs[payoutLeg]?.amountMicros ?? '0'),
      payoutLeg,
      withdraw: withdraw ? 'open' : null,
      payout: 'open',
    });
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    expect(['AUTO_PAY_NOTHING_PAYABLE', 'AUTO_PAY_WOULD_TOUCH_PRINCIPAL']).toContain(error.code);
  }
}

async function booksEqualChain(world: World) {
  const db = test().db;
  const at = { wallet: world.wallet, chain: 'solana' } as const;
  const usdc =
    (await readAccountBalance(db, { ...at, bucket: 'liquid' })) +
    (await readAccountBalance(db, { ...at, bucket: 'auto_pay' }));
  expect(usdc).toBe(world.model.usdc);
  expect(await readAccountBalance(db, { ...at, bucket: 'liquid', asset: WSOL_ASSET })).toBe(
    world.model.wsol,
  );
  expect(await readAccountBalance(db, { ...at, bucket: 'liquid', asset: NATIVE_ASSET })).toBe(
    world.model.native,
  );
  const paid = await db.$queryRaw<{ paid: bigint | null }[]>`
    SELECT SUM(l.settled_amount_micros)::bigint AS paid FROM plan_legs l
    JOIN auto_pay_payouts o ON o.plan_id = l.plan_id AND o.leg_index = l.leg_index
    WHERE o.wallet = ${world.wallet} AND l.status = 'confirmed'`;
  expect(paid[0]?.paid ?? 0n).toBe(world.model.paid);
  expect((await verifyLedger(db)).problems).toEqual([]);
}

it('keeps the books equal to the chain across interleaved money paths', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
      const db = test().db;
      const { chain, wallet, payee } = await stakedOnePayeeWallet({
        db,
        opportunities: opportunities(),
        percentage: 50,
        principalMicros: 100n * M,
      });
      await creditLiquid(db, wallet, 20n * M);
      const world: World = {
        wallet,
        payee,
        chain,
        swaps: swapChain(chain),
        model: { usdc: 20n * M, wsol: 0n, native: 0n, paid: 0n },
        runs: [],
      };
      for (const next of ops) {
        if (next.kind === 'yield') {
          chain.accrue(VENUE, next.micros);
          await harvestOnFakeChain(db, chain, wallet);
        } else if (next.kind === 'run') {
          await autoPayRun(world);
        } else {
          const spare = { ...world.model };
          const steps: Step[] = [];
          for (const single of next.kind === 'pair' ? [next.a, next.b] : [next]) {
            const step = prepare(world, single, spare);
            if (!step) continue;
            steps.push(step);
            if (single.kind === 'payout') seen.payouts += 1;
            if (single.kind === 'expire') seen.expired += 1;
            if (single.kind === 'buy' || single.kind === 'sell') seen.swaps += 1;
            if (single.kind === 'topUp') seen.topUps += 1;
          }
          if (steps.length === 2) seen.pairs += 1;
          await Promise.all(steps.map((step) => step.run()));
          for (const step of steps) step.apply(world.model);
        }
        await booksEqualChain(world);
      }
    }),
    { numRuns: 15, examples: [[example]] },
  );
  expect(seen.pairs).toBeGreaterThan(0);
  expect(seen.runs).toBeGreaterThan(0);
  expect(seen.fromReturned).toBeGreaterThan(0);
  expect(seen.payouts).toBeGreaterThan(0);
  expect(seen.expired).toBeGreaterThan(0);
  expect(seen.swaps).toBeGreaterThan(0);
  expect(seen.topUps).toBeGreaterThan(0);
});
