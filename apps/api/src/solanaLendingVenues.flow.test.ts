import request from 'supertest';
import type { Keypair, PublicKey } from '@solana/web3.js';
import { deployJupiterLend, deploySave } from '@yieldrouter/chain-beds/solana';
import type {
  SolanaBed,
  SolanaJupiterLend,
  SolanaRouterDeployment,
  SolanaSaveReserve,
} from '@yieldrouter/chain-beds/solana';
import { verifyLedger } from '@yieldrouter/ledger';
import { HarvestResult, PlanDocument } from '@yieldrouter/schemas';
import { moveSolanaTokens } from './testing/moveSolanaTokens';
import { driftsFound, reconcileTestBooks } from './testing/reconcileTestBooks';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import { settledPlan, signAndExecuteLeg, startSolanaRouterApp } from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';

// Jupiter Lend and Save end to end: their stand-ins (at the protocols' program ids) registered
// with our router on the bed, configured as the venues `jupiter-lend` and `save`. The API plans,
// the owner signs, execute broadcasts, the keeper settles from the receipt (USDC and the
// protocol's receipt token), yield accrues in the protocol's own state, a harvest books exactly
// the protocol's accrued value on our shares, and a withdrawal redeems receipts and settles.
// Reconciliation agrees with the protocol's state after the harvest and after the withdrawal,
// and reports receipts that leave the owner's wallet outside our plans.

let solana: SolanaBed;
let router: SolanaRouterDeployment;
let jupiter: SolanaJupiterLend;
let save: SolanaSaveReserve;
let t: TestApp;
let stack: SolanaRouterApp | undefined;
beforeAll(async () => {
  stack = await startSolanaRouterApp({
    onBed: (bed: SolanaBed, router: SolanaRouterDeployment) => {
      jupiter = deployJupiterLend(bed, { router });
      save = deploySave(bed, { router });
      return Promise.resolve({
        env: {
          SVC_VENUE_IDS: JSON.stringify({
            kamino: router.kamino.ids,
            'jupiter-lend': jupiter.ids,
            save: save.ids,
          }),
        },
        close: () => Promise.resolve(),
      });
    },
  });
  ({ solana, router, t } = stack);
});
afterAll(() => stack?.close());

async function signAndExecute(
  venueId: string,
  kind: 'deposit' | 'withdraw',
  owner: Keypair,
  amountMicros: string,
) {
  const plan = PlanDocument.parse(
    (
      await request(t.app)
        .post(`/api/v1/svc/strategies/${kind}/plan`)
        .send({ strategyId: venueId, amountMicros, owner: owner.publicKey.toBase58() })
        .expect(200)
    ).body,
  );
  expect(plan).toMatchObject({ status: 'prepared', executionMode: 'broadcast' });
  const executed = await signAndExecuteLeg(t, plan, owner);
  expect(await settledPlan(t, executed.planId)).toMatchObject({
    legs: [{ status: 'confirmed', txId: executed.txId }],
  });
  return executed;
}

const staked = async (wallet: string): Promise<bigint> => {
  const body = (
    await request(t.app)
      .get(`/api/v1/wallets/${wallet}/position`)
      .set('X-API-Key', testKeys.owner)
      .expect(200)
  ).body as { stakedMicros: string };
  return BigInt(body.stakedMicros);
};

const harvest = async (wallet: string) =>
  HarvestResult.parse(
    (await request(t.app).post(`/api/v1/wallets/${wallet}/harvest`).send({}).expect(200)).body,
  );

const skimOf = (gross: bigint) => (gross * 500n) / 10_000n;

/** Reconciles every book against the bed: nothing drifted, nothing unreadable. */
async function expectBooksMatchChain() {
  const report = await reconcileTestBooks(t);
  expect(driftsFound(report)).toEqual({});
  expect(report).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
  expect(report.positions).toBeGreaterThan(0);
}

/**
 * The owner sends `shares` receipts to another wallet outside our plans: reconciliation reports
 * the books' shares missing on chain, worth `worth` (what the venue pays for them; a micro more
 * at most, as the drift is the tracked shares' value less the remaining shares', each rounded
 * down); once they come back, the books match again.
 */
async function expectMovedReceiptsReported(
  receipt: { readonly mint: string; readonly owner: Keypair },
  shares: bigint,
  worth: (shares: bigint) => bigint,
) {
  const elsewhere = solana.createFundedKeypair();
  const move = (from: Keypair, to: PublicKey) =>
    moveSolanaTokens(solana, { mint: receipt.mint, decimals: 6, from, to, amount: shares });
  move(receipt.owner, elsewhere.publicKey);
  const report = await reconcileTestBooks(t);
  expect(Object.keys(driftsFound(report))).toEqual(['shares_missing']);
  expect(report).toMatchObject({ unavailable: 0, aboveThreshold: 1 });
  const missing = report.drifts.shares_missing;
  expect(missing.count).toBe(1);
  expect([worth(shares), worth(shares) + 1n]).toContain(missing.micros);
  move(elsewhere, receipt.owner.publicKey);
  await expectBooksMatchChain();
}

it('jupiter-lend: deposit → settle → interest on the liquidity layer → harvest → withdraw → settle', async () => {
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 30_000_000n);

  await signAndExecute('jupiter-lend', 'deposit', owner, '20000000');
  expect(solana.tokenBalance(jupiter.fTokenMint, owner.publicKey)).toBe(20_000_000n);
  expect(await staked(wallet)).toBe(20_000_000n);

  // 10.2 USDC of interest on the 1,020 in the vault: the price is 1.01, our 20 jlUSDC worth 20.2.
  jupiter.accrue(10_200_000n);
  const done = await harvest(wallet);
  expect(done).toMatchObject({
    outcome: 'harvested',
    grossYieldMicros: '200000',
    protocolFeeMicros: String(skimOf(200_000n)),
  });
  expect(done.positions[0]).toMatchObject({ valueMicros: '20200000' });
  await expectBooksMatchChain();

  // Withdraw 5 USDC, grossed up by the router's skim: the owner receives the 5 USDC asked (a micro
  // more at most: jlUSDC are redeemed whole, rounded up), the treasury the router's skim on the
  // yield above the principal the redeemed jlUSDC carry (one USDC each, from the deposit).
  const usdcBefore = solana.usdcBalance(owner.publicKey);
  const treasuryBefore = solana.usdcBalance(router.treasury);
  await signAndExecute('jupiter-lend', 'withdraw', owner, '5000000');
  const skim = solana.usdcBalance(router.treasury) - treasuryBefore;
  const received = solana.usdcBalance(owner.publicKey) - usdcBefore;
  expect(received >= 5_000_000n && received <= 5_000_001n).toBe(true);
  const burnt = 20_000_000n - solana.tokenBalance(jupiter.fTokenMint, owner.publicKey);
  expect(burnt).toBeGreaterThan(4_950_496n); // more than the 5 USDC alone would redeem
  expect(skim).toBe(skimOf(received + skim - burnt));
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await expectBooksMatchChain();

  // 1 jlUSDC leaves the owner's wallet outside our plans: worth 1.01 USDC at the price.
  await expectMovedReceiptsReported(
    { mint: jupiter.fTokenMint, owner },
    1_000_000n,
    (shares) => (shares * 101n) / 100n,
  );
});

it('save: deposit (reserve refreshed) → settle → borrowers’ interest → harvest → withdraw → settle', async () => {
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 30_000_000n);

  await signAndExecute('save', 'deposit', owner, '20000000');
  const cTokens = solana.tokenBalance(save.collateralMint, owner.publicKey);
  expect(cTokens).toBeGreaterThan(19_900_000n);
  expect(cTokens).toBeLessThanOrEqual(20_000_000n);
  const before = await harvest(wallet);
  expect(before.grossYieldMicros).toBe('0');

  // A tenth of a year at 10 % on 300 USDC borrowed, 80 % of it to the suppliers; a keeper's
  // RefreshReserve accrues it into the reserve, where the position reader finds it.
  save.advanceSlots(6_307_200n);
  save.refresh();
  const done = await harvest(wallet);
  expect(done.outcome).toBe('harvested');
  const gross = BigInt(done.grossYieldMicros);
  // The reserve's liquidity grew by 2.4 USDC on ~1,020: about 0.235 % on our ~20 USDC.
  expect(gross).toBeGreaterThan(45_000n);
  expect(gross).toBeLessThan(49_000n);
  expect(done.protocolFeeMicros).toBe(String(skimOf(gross)));
  const value = BigInt(done.positions[0]?.valueMicros ?? '0');
  // Exactly the reserve's value of our cTokens above the mark the deposit's settlement booked
  // (20 USDC; the cTokens minted for it were worth a micro less, the deposit rounding down).
  expect(gross).toBe(value - 20_000_000n);
  await expectBooksMatchChain();

  // Withdraw 5 USDC, grossed up: cTokens redeemed rounded up (the leg refreshes the reserve
  // first); the owner receives what was asked, the router's skim on top.
  const usdcBefore = solana.usdcBalance(owner.publicKey);
  const treasuryBefore = solana.usdcBalance(router.treasury);
  await signAndExecute('save', 'withdraw', owner, '5000000');
  const skim = solana.usdcBalance(router.treasury) - treasuryBefore;
  expect(skim).toBeGreaterThan(0n);
  expect(solana.usdcBalance(owner.publicKey) - usdcBefore).toBeGreaterThanOrEqual(5_000_000n);
  expect(value).toBeGreaterThan(20_000_000n);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await expectBooksMatchChain();

  // 1 cUSDC leaves the owner's wallet outside our plans: worth what the reserve pays for it.
  await expectMovedReceiptsReported(
    { mint: save.collateralMint, owner },
    1_000_000n,
    (shares) => (shares * value) / cTokens,
  );
});
