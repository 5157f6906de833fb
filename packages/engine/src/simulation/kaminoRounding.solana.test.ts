import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { createSolanaAdapter } from '@yieldrouter/chain-solana';
import { readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { PlanDocument } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readPlan } from '../plan/readPlan';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { settleLeg } from '../wallet/settleLeg';
import { prepareVenuePlan } from './testing/prepareVenuePlan';

// Kamino deposits after interest accrued, end to end on the Solana bed and PostgreSQL: klend
// takes the liquidity its floored cTokens are worth (rounded up), which can be a micro less than
// asked. Every honest deposit is simulated without findings, settles without review, the books
// hold what the chain moved, and the ledger's invariants hold (verifyLedger).

let test: TestDatabase;
let solana: SolanaBed;
let router: SolanaRouterDeployment;
let adapters: ChainAdapters;
let venues: VenueConfig;

beforeAll(async () => {
  [test, solana] = await Promise.all([createTestDatabase(), startSolanaBed()]);
  await seedVenueCatalog(test.db);
  router = deployYieldRouter(solana);
  adapters = {
    solana: createSolanaAdapter({
      rpcUrl: solana.rpcUrl,
      timeoutMs: 2_000,
      broadcastEnabled: true,
      usdcMint: solana.usdcMint,
      programId: router.programId,
      yieldRouter: router.yieldRouter,
      adapterRegistry: router.adapterRegistry,
    }),
  } as unknown as ChainAdapters;
  venues = { ids: { kamino: router.kamino.ids }, apyPools: {}, apyMaxAgeMs: 3_600_000 };
}, 180_000);
afterAll(async () => {
  await Promise.all([test?.drop(), solana?.stop()]);
});

/** Prepares `kind` of `amountMicros` for `owner`, signs and sends it, and settles it. */
async function run(owner: Keypair, kind: 'deposit', amountMicros: bigint) {
  const plan: PlanDocument = await prepareVenuePlan(
    { db: test.db, adapters, venues },
    { kind, id: 'kamino', owner: owner.publicKey.toBase58(), amountMicros },
  );
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  const wire = plan.legs?.[0]?.transaction;
  if (typeof wire !== 'string') throw new Error(JSON.stringify(plan));
  const transaction = VersionedTransaction.deserialize(Buffer.from(wire, 'base64'));
  transaction.sign([owner]);
  const landed = solana.send(transaction);
  if (!landed.landed || landed.entry.err !== null) throw new Error(JSON.stringify(landed));
  const settled = await settleLeg({
    db: test.db,
    adapters,
    venues,
    planId: plan.planId as string,
    legIndex: 0,
    txId: landed.entry.signature,
    now: new Date(),
  });
  expect((await readPlan(test.db, plan.planId as string)).divergences).toEqual([]);
  return settled;
}

/** The owner's kamino position as the books hold it, and the cTokens the chain holds. */
async function booksAndChain(owner: Keypair) {
  const [position] = await readTrackedPositions(test.db, [owner.publicKey.toBase58()]);
  const cTokens = solana.tokenBalance(
    new PublicKey(router.kamino.ids.reserveCollateralMint),
    owner.publicKey,
  );
  return { shares: position?.shares, staked: position?.stakedMicros, cTokens };
}

describe('kamino after interest accrued: honest deposits settle as the chain moved them', () => {
  it('every honest deposit settles, booked as moved (klend rounding), the ledger balanced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1_000_000n, max: 20_000_000n }),
        fc.bigInt({ min: 0n, max: 63_072_000n * 5n }),
        async (asked, slots) => {
          if (slots > 0n) router.kamino.accrue(slots);
          const owner = solana.createFundedKeypair();
          solana.mintUsdc(owner.publicKey, asked);
          const deposit = await run(owner, 'deposit', asked);
          const spent = asked - solana.usdcBalance(owner.publicKey);
          expect(deposit).toMatchObject({
            status: 'confirmed',
            quotedAmountMicros: String(asked),
            settledAmountMicros: String(spent),
            reviewReason: null,
          });
          const deposited = await booksAndChain(owner);
          expect(deposited).toEqual({
            shares: deposited.cTokens,
            staked: spent,
            cTokens: deposited.cTokens,
          });

          expect((await verifyLedger(test.db)).problems).toEqual([]);
        },
      ),
      // The probe's case first: five years of interest, then 1,000,112 asked, 1,000,111 taken.
      { numRuns: 12, examples: [[1_000_112n, 63_072_000n * 5n]] },
    );
  });
});
