import fc from 'fast-check';
import { computeHarvestFees } from '@yieldrouter/fees';
import { readStakedPositions, verifyLedger } from '@yieldrouter/ledger';
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

// Random sequences of stake (route with stake, settled from the receipt), yield accruing on
// chain, outages, and harvests (single or twice at once) on one position, against a model:
// every harvest books exactly value − (staked + fees retained), split by packages/fees; a
// concurrent twin books nothing more; an unreadable chain or an unsettled leg books nothing.

let test: TestDatabase;
let opportunities: Opportunity[];
beforeAll(async () => {
  test = await createTestDatabase();
  opportunities = await seedFakeStakeOpportunities(test.db.prisma);
});
afterAll(() => test.drop());

type Op =
  | { kind: 'stake'; amount: bigint; settleAfterHarvest: boolean }
  | { kind: 'accrue'; amount: bigint }
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
  fc.record({ kind: fc.constant('outage' as const) }),
  fc.record({ kind: fc.constant('harvest' as const), twice: fc.boolean(), execute: fc.boolean() }),
);

it('harvests book exactly the yield on chain, once, split by packages/fees', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
      const chain = fakeChain();
      const wallet = fakeBase58();
      const common = { db: test.db.prisma, adapters: chain.adapters, venues };
      const model = { value: 0n, staked: 0n, fees: 0n, readable: true };
      const publish = () =>
        chain.setPositionValue(wallet, VENUE, model.readable ? model.value : undefined);
      const harvest = (execute: boolean) =>
        harvestWallet({
          ...common,
          address: wallet,
          execute,
          broadcastEnabled: () => false,
          now: new Date(),
        });
      const expectedGross = () =>
        model.readable && model.staked > 0n && model.value > model.staked + model.fees
          ? model.value - model.staked - model.fees
          : 0n;

      for (const step of ops) {
        if (step.kind === 'stake') {
          // The owner's transaction lands: the chain holds the money before the ledger knows.
          const landed = await landStake({
            db: test.db.prisma,
            settlements: test.db.settlements,
            chain,
            opportunities,
            wallet,
            amountMicros: step.amount,
          });
          model.value += step.amount;
          publish();
          if (step.settleAfterHarvest && model.staked > 0n) {
            const early = await harvest(false);
            expect(early.positions[0]).toMatchObject({ outcome: 'unavailable' });
            expect(early.grossYieldMicros).toBe('0');
          }
          const settled = await landed.settle();
          expect(settled.status).toBe('confirmed');
          model.staked += step.amount;
        } else if (step.kind === 'accrue') {
          model.value += step.amount;
          model.readable = true;
          publish();
        } else if (step.kind === 'outage') {
          model.readable = false;
          publish();
        } else {
          const gross = expectedGross();
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
            model.fees += fees.protocolFeeMicros + fees.profitFeeMicros;
          }
          if (model.staked === 0n) {
            expect(results[0]).toMatchObject({ mode: 'no_op_harvest', outcome: 'blocked' });
          }
        }
      }
      const [position] = await readStakedPositions(test.db.prisma, wallet);
      expect(position?.balanceMicros ?? 0n).toBe(model.staked);
    }),
    { numRuns: 25 },
  );
  expect((await verifyLedger(test.db.prisma)).problems).toEqual([]);
}, 180_000);
