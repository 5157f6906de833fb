import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { deployJupiterLend, deploySave } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { readTrackedPositions, verifyLedger } from '@yieldrouter/ledger';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import {
  expectSkimmedWithdrawal,
  expectWithdrawnAsMoved,
  settleOnSolanaBed,
} from './testing/settleOnSolanaBed';
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
let router: SolanaRouterDeployment;
/** Per venue: interest arriving (`amount` a step, in the venue's own unit), and its receipt mint. */
let lend: Record<'jupiter-lend' | 'save', { accrue(step: bigint): void; receipt: PublicKey }>;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const bed = await startSolanaEngineBed((started, router) => {
    const jupiter = deployJupiterLend(started, { router });
    const save = deploySave(started, { router });
    return { ids: { 'jupiter-lend': jupiter.ids, save: save.ids }, jupiter, save };
  });
  ({ test, solana, adapters, venues, router, stop } = bed);
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

/**
 * A new owner deposits `deposited` at `id` and withdraws `perMille`‰ of it, each leg settled with
 * no finding, review or divergence (`run`). `meanwhile`: interest between each leg's prepare and
 * its landing (the wallet signs the same instructions on a newer blockhash). `held`: interest
 * while the owner holds, so the withdrawal carries the router's skim to the treasury (the leg
 * grossed up by it: its quote is not what was asked).
 */
async function depositThenWithdraw(
  id: LendVenue,
  amounts: {
    readonly deposited: bigint;
    readonly perMille: bigint;
    readonly held?: bigint | undefined;
  },
  meanwhile?: () => boolean,
) {
  const { deposited, perMille, held } = amounts;
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, deposited);
  const depositSettled = await run(id, 'deposit', owner, deposited, meanwhile);
  // Both venues take exactly the amount on a deposit.
  expect(solana.usdcBalance(owner.publicKey)).toBe(0n);
  expect(depositSettled).toMatchObject({
    status: 'confirmed',
    settledAmountMicros: String(deposited),
    reviewReason: null,
  });

  if (held !== undefined) lend[id].accrue(held);
  const asked = (deposited * perMille) / 1_000n;
  const before = await booksAndChain(id, owner);
  const treasuryBefore = solana.usdcBalance(router.treasury);
  const settled = await run(id, 'withdraw', owner, asked, meanwhile);
  const received = solana.usdcBalance(owner.publicKey);
  const after = await booksAndChain(id, owner);
  const moved = { asked, received, before, after };
  if (held === undefined) expectWithdrawnAsMoved(settled, moved);
  else {
    expect(solana.usdcBalance(router.treasury)).toBeGreaterThan(treasuryBefore);
    expectSkimmedWithdrawal(settled, moved);
  }
  expect((await verifyLedger(test.db)).problems).toEqual([]);
}

/** fast-check over a deposit of 2 to 20 USDC, `step` of interest, a withdrawal of 1 to 999‰. */
const lendProperty = (
  step: fc.Arbitrary<bigint>,
  numRuns: number,
  check: (run: { deposited: bigint; step: bigint; perMille: bigint }) => Promise<void>,
) =>
  fc.assert(
    fc.asyncProperty(
      fc.record({
        deposited: fc.bigInt({ min: 2_000_000n, max: 20_000_000n }),
        step,
        perMille: fc.bigInt({ min: 1n, max: 999n }),
      }),
      check,
    ),
    { numRuns },
  );

/**
 * Interest between prepare and landing, no more than one receipt's worth on what these legs burn
 * (the bound a withdrawal's settlement allows): up to a minute of Save's slots (at 400 ms), up to
 * 40 micros into Jupiter's vault of over 1,000 USDC. Run first, while the rates are near one:
 * after the years of interest below, honest withdrawals are flagged as long fills (found here,
 * not fixed: docs/simulation.md "Not yet").
 */
const moving: Record<LendVenue, fc.Arbitrary<bigint>> = {
  'jupiter-lend': fc.bigInt({ min: 1n, max: 40n }),
  save: fc.bigInt({ min: 1n, max: 150n }),
};
/**
 * A year of interest while held on Jupiter (50 USDC into its vault): the withdrawal carries the
 * router's skim. Not on Save: there the router's skim can differ from the plan's by a micro
 * (docs/simulation.md "Not yet"); its skim with a moving rate is saveSkimming.solana.test.ts's.
 */
const HELD: Record<LendVenue, bigint | undefined> = {
  'jupiter-lend': 50_000_000n,
  save: undefined,
};

describe.each<LendVenue>(['jupiter-lend', 'save'])(
  '%s with the rate moving between prepare and landing',
  (id) => {
    it('an honest deposit and withdrawal (on Jupiter carrying the router skim): no divergence', () =>
      lendProperty(moving[id], 15, async ({ deposited, step, perMille }) => {
        await depositThenWithdraw(id, { deposited, perMille, held: HELD[id] }, () => {
          lend[id].accrue(step);
          return true;
        });
      }));
  },
);

describe.each<LendVenue>(['jupiter-lend', 'save'])(
  '%s after interest accrued: honest legs settle as the chain moved them',
  (id) => {
    it('every honest deposit and part withdrawal: no findings, no review, booked as moved', () =>
      lendProperty(interest[id], 25, async ({ deposited, step, perMille }) => {
        lend[id].accrue(step);
        await depositThenWithdraw(id, { deposited, perMille });
      }));
  },
);
