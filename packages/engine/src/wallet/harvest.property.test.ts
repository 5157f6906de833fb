import fc from 'fast-check';
import { computeHarvestFees } from '@yieldrouter/fees';
import { readStakedPositions, readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Opportunity } from '@yieldrouter/schemas';
import { harvestWallet } from './harvest';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
  landStake,
  seedFakeStakeOpportunities,
} from './testing/stakeOnFakeChain';

// Random sequences of stake (route with stake, settled from the receipt, or landed and left
// unsettled over a harvest), yield accruing to the venue's share price, deposits into the same
// venue outside our plans, outages, and harvests (single or twice at once) on one position,
// against a model: every harvest books exactly what the shares our settled legs minted gained
// over the mark, split by packages/fees; outside money and unsettled landings are reported as
// untracked and never skimmed; a concurrent twin books nothing more; an outage books nothing.

let test: TestDatabase;
let opportunities: Opportunity[];
beforeAll(async () => {
  test = await createTestDatabase();
  opportunities = await seedFakeStakeOpportunities(test.db);
});
afterAll(() => test.drop());

type Op =
  | { kind: 'stake'; amount: bigint; settleAfterHarvest: boolean }
  | { kind: 'accrue'; amount: bigint }
  | { kind: 'outside'; amount: bigint }
  | { kind: 'outage' }
  | { kind: 'harvest'; twice: boolean; execute: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('stake' as const),
    amount: fc.bigInt({ min: 1n, max: 50_000_000n }),
    settleAfterHarvest: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('accrue' as const),
    amount: fc.bigInt({ min: 0n, max: 3_000_000n }),
  }),
  fc.record({
    kind: fc.constant('outside' as const),
    amount: fc.bigInt({ min: 1n, max: 20_000_000n }),
  }),
  fc.record({ kind: fc.constant('outage' as const) }),
  fc.record({ kind: fc.constant('harvest' as const), twice: fc.boolean(), execute: fc.boolean() }),
);

it('harvests book exactly the yield the share price proves on our shares, once, split by packages/fees', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
      const chain = fakeChain();
      const wallet = fakeBase58();
      const common = { db: test.db, adapters: chain.adapters, venues };
      const model = { shares: 0n, mark: 0n, staked: 0n };
      const harvest = (execute: boolean) =>
        harvestWallet({
          ...common,
          address: wallet,
          execute,
          broadcastEnabled: () => false,
          now: new Date(),
        });
      const expectedGross = () => {
        const value = chain.valueOf(VENUE, model.shares);
        return model.shares > 0n && value > model.mark ? value - model.mark : 0n;
      };
      let readable = true;

      for (const step of ops) {
        if (step.kind === 'stake') {
          // The owner's transaction lands: the chain holds the shares before the ledger knows.
          const before = chain.sharesOf(wallet, VENUE);
          const landed = await landStake({
            db: test.db,
            chain,
            opportunities,
            wallet,
            amountMicros: step.amount,
          });
          const minted = chain.sharesOf(wallet, VENUE) - before;
          if (step.settleAfterHarvest && model.shares > 0n && readable) {
            // A landed, unsettled leg is untracked money: the harvest books only our shares.
            const gross = expectedGross();
            const early = await harvest(false);
            expect(BigInt(early.grossYieldMicros)).toBe(gross);
            expect(BigInt(early.positions[0]?.untrackedMicros ?? '0')).toBeGreaterThanOrEqual(
              chain.valueOf(VENUE, minted) - 1n,
            );
            if (gross > 0n) {
              const fees = computeHarvestFees({ grossYieldMicros: gross });
              model.staked += fees.netYieldMicros;
              model.mark += gross;
            }
          }
          const settled = await landed.settle();
          expect(settled.status).toBe('confirmed');
          model.staked += step.amount;
          model.mark += step.amount;
          model.shares += minted;
        } else if (step.kind === 'accrue') {
          chain.accrue(VENUE, step.amount);
          readable = true;
          chain.setUnreadable(VENUE, false);
        } else if (step.kind === 'outside') {
          chain.depositOutside(wallet, VENUE, step.amount);
        } else if (step.kind === 'outage') {
          readable = false;
          chain.setUnreadable(VENUE, true);
        } else {
          const gross = readable ? expectedGross() : 0n;
          const results = await Promise.all(
            Array.from({ length: step.twice ? 2 : 1 }, () => harvest(step.execute)),
          );
          const booked = results.reduce((sum, result) => sum + BigInt(result.grossYieldMicros), 0n);
          const fees = computeHarvestFees({ grossYieldMicros: gross });
          if (step.execute) {
            // Prepare-only: each answer shows the amounts; nothing is booked.
            for (const result of results) {
              expect(BigInt(result.grossYieldMicros)).toBe(gross);
              expect(result.httpStatus).toBe(gross > 0n ? 202 : 200);
            }
          } else {
            expect(booked).toBe(gross);
            model.staked += fees.netYieldMicros;
            model.mark += gross;
          }
          if (readable && model.shares > 0n) {
            // Outside money is reported, never skimmed.
            const untracked =
              chain.valueOf(VENUE, chain.sharesOf(wallet, VENUE)) -
              chain.valueOf(VENUE, model.shares);
            expect(results[0]?.positions[0]?.untrackedMicros).toBe(String(untracked));
          }
          // Nothing staked: nothing to measure. (A stake can mint no share — 1 micro into a venue
          // whose price rose with no supply — and still be a position the harvest must read.)
          if (model.shares === 0n && model.staked === 0n) {
            expect(results[0]).toMatchObject({ mode: 'no_op_harvest', outcome: 'blocked' });
          }
        }
      }
      const [position] = await readStakedPositions(test.db, wallet);
      expect(position?.balanceMicros ?? 0n).toBe(model.staked);
      const [tracked] = await readTrackedPositions(test.db, [wallet]);
      expect(tracked?.shares ?? 0n).toBe(model.shares);
      expect(tracked?.markMicros ?? 0n).toBe(model.mark);
    }),
    { numRuns: 25 },
  );
  expect((await verifyLedger(test.db)).problems).toEqual([]);
}, 180_000);
