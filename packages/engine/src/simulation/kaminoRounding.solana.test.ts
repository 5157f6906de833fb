import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { expectSkimmedWithdrawal, settleOnSolanaBed } from './testing/settleOnSolanaBed';
import { startSolanaEngineBed } from './testing/solanaEngineBed';

// Kamino deposits after interest accrued, end to end on the Solana bed and PostgreSQL: klend
// takes the liquidity its floored cTokens are worth (rounded up), which can be a micro less than
// asked. Every honest deposit is simulated without findings, settles without review, the books
// hold what the chain moved, and the ledger's invariants hold (verifyLedger).

let test: TestDatabase;
let solana: SolanaBed;
let router: SolanaRouterDeployment;
let adapters: ChainAdapters;
let venues: VenueConfig;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ test, solana, router, adapters, venues, stop } = await startSolanaEngineBed(
    (_started, deployed) => ({ ids: { kamino: deployed.kamino.ids } }),
  ));
}, 180_000);
afterAll(() => stop?.());

/**
 * Prepares a deposit (withdrawal) of `amountMicros` for `owner`, signs and sends it (after
 * `meanwhile`, what happens on chain between prepare and landing), and settles it: simulated
 * without findings, no divergence recorded.
 */
async function run(
  kind: 'deposit' | 'withdraw',
  owner: Keypair,
  amountMicros: bigint,
  meanwhile?: () => boolean,
) {
  const { simulation, settled, divergences } = await settleOnSolanaBed(
    { db: test.db, adapters, venues, solana },
    { kind, id: 'kamino', owner, amountMicros },
    // Slots passed: the wallet signs the same instructions on a blockhash still valid.
    meanwhile,
  );
  expect(simulation).toMatchObject({ status: 'simulated', findings: [] });
  expect(divergences).toEqual([]);
  return settled;
}

const deposit = (owner: Keypair, amountMicros: bigint, meanwhile?: () => boolean) =>
  run('deposit', owner, amountMicros, meanwhile);

/** The owner's kamino position as the books hold it, and the cTokens the chain holds. */
async function booksAndChain(owner: Keypair) {
  const [position] = await readTrackedPositions(test.db, [owner.publicKey.toBase58()]);
  const receipts = solana.tokenBalance(
    new PublicKey(router.kamino.ids.reserveCollateralMint),
    owner.publicKey,
  );
  return { shares: position?.shares, staked: position?.stakedMicros, receipts };
}

/** Up to five years of interest (slots at 400 ms). */
const interestSlots = fc.bigInt({ min: 0n, max: 63_072_000n * 5n });

/** After `slots` of interest, a new owner holding `usdc` micros. */
function ownerAfterInterest(slots: bigint, usdc: bigint): Keypair {
  if (slots > 0n) router.kamino.accrue(slots);
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, usdc);
  return owner;
}

describe('kamino after interest accrued: honest deposits settle as the chain moved them', () => {
  it('every honest deposit settles, booked as moved (klend rounding), the ledger balanced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1_000_000n, max: 20_000_000n }),
        interestSlots,
        async (asked, slots) => {
          const owner = ownerAfterInterest(slots, asked);
          const settled = await deposit(owner, asked);
          const spent = asked - solana.usdcBalance(owner.publicKey);
          expect(settled).toMatchObject({
            status: 'confirmed',
            quotedAmountMicros: String(asked),
            settledAmountMicros: String(spent),
            reviewReason: null,
          });
          const deposited = await booksAndChain(owner);
          expect(deposited).toEqual({
            shares: deposited.receipts,
            staked: spent,
            receipts: deposited.receipts,
          });

          expect((await verifyLedger(test.db)).problems).toEqual([]);
        },
      ),
      // The probe's case first: five years of interest, then 1,000,112 asked, 1,000,111 taken.
      { numRuns: 12, examples: [[1_000_112n, 63_072_000n * 5n]] },
    );
  });

  it('the rate moving between prepare and landing is within the rounding: no divergence', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1_000_000n, max: 20_000_000n }),
        fc.bigInt({ min: 1n, max: 63_072_000n }),
        async (asked, slots) => {
          const owner = solana.createFundedKeypair();
          solana.mintUsdc(owner.publicKey, asked);
          // `deposit` expects no divergence recorded for the leg.
          const settled = await deposit(owner, asked, () => {
            router.kamino.accrue(slots);
            return true;
          });
          expect(settled).toMatchObject({
            status: 'confirmed',
            settledAmountMicros: String(asked - solana.usdcBalance(owner.publicKey)),
            reviewReason: null,
          });
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('kamino after interest accrued: honest withdrawals settle as the chain moved them', () => {
  // Interest accrues before the deposit (the rate is off 1:1, so the redemption rounds) and a
  // year of it while the owner holds: the router pays its yield skim to the treasury inside the
  // withdrawal, the plan grossed up so the owner receives what was asked.
  it('every honest withdrawal settles, booked as moved (klend rounding), the ledger balanced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          deposited: fc.bigInt({ min: 2_000_000n, max: 20_000_000n }),
          slots: interestSlots,
          perMille: fc.bigInt({ min: 1n, max: 999n }),
        }),
        async ({ deposited, slots, perMille }) => {
          const owner = ownerAfterInterest(slots, deposited);
          await deposit(owner, deposited);
          router.kamino.accrue(63_072_000n);
          // Part of what the deposit is worth: never a full exit (capped at the cTokens held).
          const asked = (deposited * perMille) / 1_000n;
          const before = await booksAndChain(owner);
          const usdcBefore = solana.usdcBalance(owner.publicKey);
          const treasuryBefore = solana.usdcBalance(router.treasury);
          const settled = await run('withdraw', owner, asked);
          const received = solana.usdcBalance(owner.publicKey) - usdcBefore;
          // The withdrawal carries the router's skim, paid to its treasury inside the leg.
          expect(solana.usdcBalance(router.treasury)).toBeGreaterThan(treasuryBefore);
          const after = await booksAndChain(owner);
          // The plan burns ceil(asked / rate) cTokens: the owner receives at least what was asked.
          expectSkimmedWithdrawal(settled, { asked, received, before, after });

          expect((await verifyLedger(test.db)).problems).toEqual([]);
        },
      ),
      // The probe's case: five years of interest, 500,056 received for 500,055 asked.
      {
        numRuns: 10,
        examples: [[{ deposited: 1_000_111n, slots: 63_072_000n * 5n, perMille: 500n }]],
      },
    );
  });
});
