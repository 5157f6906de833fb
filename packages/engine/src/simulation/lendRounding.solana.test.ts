import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { deployJupiterLend, deploySave } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { expectWithdrawnAsMoved, settleOnSolanaBed } from './testing/settleOnSolanaBed';
import { startSolanaEngineBed } from './testing/solanaEngineBed';

// Jupiter Lend and Save after interest accrued, end to end on the Solana bed and PostgreSQL:
// a deposit is exact in USDC (both mint floored receipts for exactly the amount); a withdrawal
// burns the receipts worth at least the amount and the venue pays them rounded down, which can
// be a micro more than asked. Every honest deposit and withdrawal is simulated without findings,
// settles without review, the books hold what the chain moved, and the ledger balances.

let test: TestDatabase;
let solana: SolanaBed;
let adapters: ChainAdapters;
let venues: VenueConfig;
/** Per venue: interest arriving (`amount` a step, in the venue's own unit), and its receipt mint. */
let lend: Record<'jupiter-lend' | 'save', { accrue(step: bigint): void; receipt: PublicKey }>;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const bed = await startSolanaEngineBed((started, router) => {
    const jupiter = deployJupiterLend(started, { router });
    const save = deploySave(started, { router });
    return { ids: { 'jupiter-lend': jupiter.ids, save: save.ids }, jupiter, save };
  });
  ({ test, solana, adapters, venues, stop } = bed);
  const { jupiter, save } = bed.deployed;
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
afterAll(() => stop?.());

type LendVenue = 'jupiter-lend' | 'save';

/** `kind` of `amountMicros` at `id` for `owner`, settled: no finding, no divergence. */
async function run(
  id: LendVenue,
  kind: 'deposit' | 'withdraw',
  owner: Keypair,
  amountMicros: bigint,
) {
  const { simulation, settled, divergences } = await settleOnSolanaBed(
    { db: test.db, adapters, venues, solana },
    { kind, id, owner, amountMicros },
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
