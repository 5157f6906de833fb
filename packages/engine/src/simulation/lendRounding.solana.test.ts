import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import {
  deployJupiterLend,
  deploySave,
  deployYieldRouter,
  startSolanaBed,
} from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { bedAdapter } from '@yieldrouter/chain-solana/src/testing/bedAdapter';
import { readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../chains/chainsConfig';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { expectWithdrawnAsMoved, settleOnSolanaBed } from './testing/settleOnSolanaBed';

// Jupiter Lend and Save after interest accrued, end to end on the Solana bed and PostgreSQL:
// a deposit is exact in USDC (both mint floored receipts for exactly the amount); a withdrawal
// burns the receipts worth at least the amount and the venue pays them rounded down, which can
// be a micro more than asked. Every honest deposit and withdrawal is simulated without findings,
// settles without review, the books hold what the chain moved, and the ledger balances.

let test: TestDatabase;
let solana: SolanaBed;
let adapters: ChainAdapters;
let venues: VenueConfig;
let router: SolanaRouterDeployment;
/** Per venue: interest arriving (`amount` a step, in the venue's own unit), and its receipt mint. */
let lend: Record<'jupiter-lend' | 'save', { accrue(step: bigint): void; receipt: PublicKey }>;

beforeAll(async () => {
  [test, solana] = await Promise.all([createTestDatabase(), startSolanaBed()]);
  await seedVenueCatalog(test.db);
  router = deployYieldRouter(solana);
  const jupiter = deployJupiterLend(solana, { router });
  const save = deploySave(solana, { router });
  adapters = { solana: bedAdapter({ ...solana, router }) } as unknown as ChainAdapters;
  venues = {
    ids: { 'jupiter-lend': jupiter.ids, save: save.ids },
    apyPools: {},
    apyMaxAgeMs: 3_600_000,
    apyMeanMinSamples: 1,
  };
  lend = {
    // Interest of `step` micros arrives on the liquidity layer.
    'jupiter-lend': {
      accrue: (step) => {
        solana.svm.expireBlockhash(); // the same mint again is a new transaction
        jupiter.accrue(step);
      },
      receipt: new PublicKey(jupiter.fTokenMint),
    },
    // `step` slots of borrowers' interest, accrued by a keeper's refresh.
    save: {
      accrue: (step) => {
        save.advanceSlots(step);
        save.refresh();
      },
      receipt: new PublicKey(save.collateralMint),
    },
  };
}, 180_000);
afterAll(async () => {
  await Promise.all([test?.drop(), solana?.stop()]);
});

type LendVenue = 'jupiter-lend' | 'save';

/**
 * `kind` of `amountMicros` at `id` for `owner`, settled: no finding, no divergence. `meanwhile`:
 * what happens on chain between prepare and landing.
 */
async function run(
  id: LendVenue,
  kind: 'deposit' | 'withdraw',
  owner: Keypair,
  amountMicros: bigint,
  meanwhile?: () => boolean,
) {
  const { simulation, settled, divergences } = await settleOnSolanaBed(
    { db: test.db, adapters, venues, solana },
    { kind, id, owner, amountMicros },
    meanwhile,
  );
  expect(simulation).toMatchObject({ status: 'simulated', findings: [] });
  expect(divergences).toEqual([]);
  return settled;
}

/** The owner's position at `id` as the books hold it, and the receipts the chain holds. */
async function booksAndChain(id: LendVenue, owner: Keypair) {
  const positions = await readTrackedPositions(test.db, [owner.publicKey.toBase58()]);
  const position = positions.find((p) => p.venueId === id);
  const receipts = solana.tokenBalance(lend[id].receipt, owner.publicKey);
  return { shares: position?.shares, receipts };
}

/** Interest per venue before the deposit: micros into Jupiter's vault, or slots on Save. */
const interest: Record<LendVenue, fc.Arbitrary<bigint>> = {
  'jupiter-lend': fc.bigInt({ min: 1n, max: 500_000_000n }),
  save: fc.bigInt({ min: 1n, max: 63_072_000n }),
};

describe.each<LendVenue>(['jupiter-lend', 'save'])(
  '%s after interest accrued: honest legs settle as the chain moved them',
  (id) => {
    it('every honest deposit and part withdrawal: no findings, no review, booked as moved', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            deposited: fc.bigInt({ min: 2_000_000n, max: 20_000_000n }),
            step: interest[id],
            perMille: fc.bigInt({ min: 1n, max: 999n }),
          }),
          async ({ deposited, step, perMille }) => {
            lend[id].accrue(step);
            const owner = solana.createFundedKeypair();
            solana.mintUsdc(owner.publicKey, deposited);
            const depositSettled = await run(id, 'deposit', owner, deposited);
            // Both venues take exactly the amount on a deposit.
            expect(solana.usdcBalance(owner.publicKey)).toBe(0n);
            expect(depositSettled).toMatchObject({
              status: 'confirmed',
              settledAmountMicros: String(deposited),
              reviewReason: null,
            });

            const asked = (deposited * perMille) / 1_000n;
            const before = await booksAndChain(id, owner);
            const settled = await run(id, 'withdraw', owner, asked);
            const received = solana.usdcBalance(owner.publicKey);
            const after = await booksAndChain(id, owner);
            expectWithdrawnAsMoved(settled, { asked, received, before, after });

            expect((await verifyLedger(test.db)).problems).toEqual([]);
          },
        ),
        { numRuns: 25 },
      );
    });
  },
);

/**
 * Interest between prepare and landing, no more than one receipt's worth on what these legs burn
 * (the bound a withdrawal's settlement allows: see docs/simulation.md "Not yet"): up to a minute
 * of Save's slots (at 400 ms), up to 40 micros into Jupiter's vault of over 1,000 USDC.
 */
const moving: Record<LendVenue, fc.Arbitrary<bigint>> = {
  'jupiter-lend': fc.bigInt({ min: 1n, max: 40n }),
  save: fc.bigInt({ min: 1n, max: 150n }),
};

describe.each<LendVenue>(['jupiter-lend', 'save'])(
  '%s with the rate moving between prepare and landing',
  (id) => {
    // Interest arrives after the plan was simulated and before it lands (the wallet signs the
    // same instructions on a newer blockhash), and a year of it while the owner holds: the
    // withdrawal carries the router's skim to the treasury. Within the venue's rounding: no
    // finding, no review, no divergence (`run`).
    it('an honest deposit, and a withdrawal carrying the router skim: no divergence', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            deposited: fc.bigInt({ min: 2_000_000n, max: 20_000_000n }),
            moving: moving[id],
            perMille: fc.bigInt({ min: 1n, max: 999n }),
          }),
          async ({ deposited, moving, perMille }) => {
            const meanwhile = () => {
              lend[id].accrue(moving);
              return true;
            };
            const owner = solana.createFundedKeypair();
            solana.mintUsdc(owner.publicKey, deposited);
            const depositSettled = await run(id, 'deposit', owner, deposited, meanwhile);
            expect(depositSettled).toMatchObject({
              status: 'confirmed',
              settledAmountMicros: String(deposited),
              reviewReason: null,
            });

            lend[id].accrue(id === 'save' ? 63_072_000n : 50_000_000n);
            const asked = (deposited * perMille) / 1_000n;
            const before = await booksAndChain(id, owner);
            const treasuryBefore = solana.usdcBalance(router.treasury);
            const settled = await run(id, 'withdraw', owner, asked, meanwhile);
            expect(solana.usdcBalance(router.treasury)).toBeGreaterThan(treasuryBefore);
            const received = solana.usdcBalance(owner.publicKey);
            const after = await booksAndChain(id, owner);
            // The leg is grossed up by the skim (its quote is not what was asked): the owner
            // receives at least what was asked, booked as received, and no more is flagged.
            expect(received).toBeGreaterThanOrEqual(asked);
            expect(settled).toMatchObject({
              status: 'confirmed',
              settledAmountMicros: String(received),
              reviewReason: null,
            });
            expect(after.shares).toBe(after.receipts);
            expect(after.receipts).toBeLessThan(before.receipts);

            expect((await verifyLedger(test.db)).problems).toEqual([]);
          },
        ),
        { numRuns: 15 },
      );
    });
  },
);
