import fc from 'fast-check';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { prepareExit } from './prepareExit';
import { prepareRoute } from './prepareRoute';
import { settleLeg } from './settleLeg';
import { fakeBase58, fakeChain } from './testing/fakeChain';

// Random sequences of route / settle / withdraw on one wallet, against a model that only moves
// on confirmed receipts. After every sequence: the books equal the model, nothing is negative,
// and the database-wide invariants (postings sum to zero, balances = postings) hold.

const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

type Op =
  | { kind: 'route'; amount: bigint }
  | { kind: 'withdraw'; amount: bigint }
  | { kind: 'settle'; pick: number; result: 'ok' | 'failed' | 'short' | 'twice' };

const amount = fc.bigInt({ min: 1n, max: 5_000_000n });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('route' as const), amount }),
  fc.record({ kind: fc.constant('withdraw' as const), amount }),
  fc.record({
    kind: fc.constant('settle' as const),
    pick: fc.nat(),
    result: fc.constantFrom('ok' as const, 'failed' as const, 'short' as const, 'twice' as const),
  }),
);

it('books follow the receipts for any sequence of route, settle and withdraw', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      const chain = fakeChain();
      const wallet = fakeBase58();
      const common = {
        db: test.db,
        adapters: chain.adapters,
        now: new Date(),
      };
      const model = { liquid: 0n, pendingIn: 0n, pendingOut: 0n, credited: 0n };
      const open: { planId: string; amount: bigint; kind: 'route' | 'exit' }[] = [];
      for (const step of ops) {
        if (step.kind === 'route') {
          const plan = await prepareRoute({
            ...common,
            venues,
            opportunities: [],
            autoYieldVenueId: null,
            address: wallet,
            input: { amountMicros: step.amount, token: 'USDC', stake: false, chain: 'solana' },
          });
          open.push({ planId: plan.planId as string, amount: step.amount, kind: 'route' });
          model.pendingIn += step.amount;
        } else if (step.kind === 'withdraw') {
          try {
            const plan = await prepareExit({
              ...common,
              address: wallet,
              amountMicros: step.amount,
            });
            open.push({ planId: plan.planId as string, amount: step.amount, kind: 'exit' });
            model.liquid -= step.amount;
            model.pendingOut += step.amount;
          } catch (error) {
            expect(error).toBeInstanceOf(EngineError);
            expect(step.amount > model.liquid).toBe(true);
          }
        } else if (open.length > 0) {
          const [leg] = open.splice(step.pick % open.length, 1);
          if (!leg) continue;
          // A short fill moves less than quoted; the books hold what moved (flagged for review).
          const moved = step.result === 'short' && leg.amount > 1n ? leg.amount - 1n : leg.amount;
          const txId = chain.execute(
            { planId: leg.planId, amountMicros: leg.amount },
            { ok: step.result !== 'failed', amountMicros: moved },
          );
          const settle = () =>
            settleLeg({ ...common, venues, planId: leg.planId, legIndex: 0, txId });
          const settled =
            step.result === 'twice' ? (await Promise.all([settle(), settle()]))[0] : await settle();
          const confirmed = step.result !== 'failed';
          expect(settled.status).toBe(confirmed ? 'confirmed' : 'failed');
          expect(settled.reviewReason !== null).toBe(confirmed && moved !== leg.amount);
          if (leg.kind === 'route') {
            model.pendingIn -= leg.amount;
            if (confirmed) {
              model.liquid += moved;
              model.credited += moved;
            }
          } else {
            model.pendingOut -= leg.amount;
            model.liquid += confirmed ? leg.amount - moved : leg.amount;
          }
        }
      }
      const rows = await readBalancesOf(test.db, [wallet]);
      const of = (bucket: string) => rows.find((row) => row.bucket === bucket)?.balanceMicros ?? 0n;
      expect({
        liquid: of('liquid'),
        pendingIn: of('pending_in'),
        pendingOut: of('pending_out'),
      }).toEqual({
        liquid: model.liquid,
        pendingIn: model.pendingIn,
        pendingOut: model.pendingOut,
      });
      for (const row of rows) expect(row.balanceMicros >= 0n).toBe(true);
    }),
    { numRuns: 30 },
  );
  expect((await verifyLedger(test.db)).problems).toEqual([]);
}, 120_000);
