import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { readTreasuryReceipts, verifyLedger } from '@yieldrouter/ledger';
import { HarvestResult, PlanDocument } from '@yieldrouter/schemas';
import { driftsFound, reconcileTestBooks } from './testing/reconcileTestBooks';
import { harvestExecute } from './testing/harvestExecute';
import { protocolFees } from './testing/swapTestTables';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import { settledPlan, signAndExecuteLeg, startSolanaRouterApp } from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';

// Kamino on Solana, really executed: our router program and the klend stand-in (C, built by
// tooling/solana-programs, at klend's program id) run in the bed. The API prepares the plan, the
// owner signs it with a bed key, execute broadcasts it, the keeper settles it from the receipt
// (the owner's USDC and cUSDC deltas), the position shows it staked; the withdrawal redeems cTokens
// the same way, and a harvest after interest accrues in the Reserve books exactly the yield on
// our cTokens at (available + borrowed − fees) / collateral supply.

let solana: SolanaBed;
let router: SolanaRouterDeployment;
let t: TestApp;
let stack: SolanaRouterApp | undefined;
beforeAll(async () => {
  stack = await startSolanaRouterApp();
  ({ solana, router, t } = stack);
});
afterAll(() => stack?.close());

/** Prepares a plan for the kamino venue (the bed's klend stand-in), signs it, executes. */
async function signAndExecute(kind: 'deposit' | 'withdraw', owner: Keypair, amountMicros: string) {
  const plan = PlanDocument.parse(
    (
      await request(t.app)
        .post(`/api/v1/svc/strategies/${kind}/plan`)
        .send({ strategyId: 'kamino', amountMicros, owner: owner.publicKey.toBase58() })
        .expect(200)
    ).body,
  );
  expect(plan).toMatchObject({ status: 'prepared', executionMode: 'broadcast' });
  return signAndExecuteLeg(t, plan, owner);
}

const settled = (planId: string) => settledPlan(t, planId);

const position = async (wallet: string) =>
  (
    await request(t.app)
      .get(`/api/v1/wallets/${wallet}/position`)
      .set('X-API-Key', testKeys.owner)
      .expect(200)
  ).body as Record<string, unknown>;

it('/svc/packages shows the router program deployed on localnet, with its PDAs and authority', async () => {
  const document = (await request(t.app).get('/api/v1/svc/packages').expect(200)).body as {
    chains: { chain: string; network: string; status: string; objects: unknown[] }[];
  };
  expect(document.chains.find((chain) => chain.chain === 'solana')).toMatchObject({
    network: 'localnet',
    status: 'live',
    objects: expect.arrayContaining([
      { kind: 'program', id: router.programId },
      { kind: 'adapterRegistry', id: router.adapterRegistry },
      { kind: 'yieldRouter', id: router.yieldRouter },
      { kind: 'upgradeAuthority', id: router.admin },
    ]),
  });
});

it('deposit → settle → staked; withdraw → settle; a harvest after the venue price moves', async () => {
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 30_000_000n);

  // Deposit 20 USDC into the venue through the router program.
  const deposit = await signAndExecute('deposit', owner, '20000000');
  expect(solana.transaction(deposit.txId)?.logMessages).toContain(
    `Program log: svc:${deposit.planId} deposit_to_venue amount=20000000`,
  );
  expect(await settled(deposit.planId)).toMatchObject({
    legs: [{ status: 'confirmed', txId: deposit.txId }],
  });
  expect(solana.usdcBalance(owner.publicKey)).toBe(10_000_000n);
  // The reserve's rate is still one: 20 cUSDC for 20 USDC.
  const cUsdc = router.kamino.ids.reserveCollateralMint;
  expect(solana.tokenBalance(cUsdc, owner.publicKey)).toBe(20_000_000n);
  expect(await position(wallet)).toMatchObject({ stakedMicros: '20000000' });

  // Withdraw 5 USDC back the same way: klend redeems the 5 cUSDC worth it.
  const withdrawal = await signAndExecute('withdraw', owner, '5000000');
  expect(solana.transaction(withdrawal.txId)?.logMessages).toContain(
    `Program log: svc:${withdrawal.planId} withdraw_from_venue shares=5000000`,
  );
  expect(await settled(withdrawal.planId)).toMatchObject({
    legs: [{ status: 'confirmed', txId: withdrawal.txId }],
  });
  expect(solana.usdcBalance(owner.publicKey)).toBe(15_000_000n);
  expect(await position(wallet)).toMatchObject({ stakedMicros: '15000000' });

  // Nothing has accrued yet: a harvest finds no yield.
  const harvest = (body: object) =>
    request(t.app).post(`/api/v1/wallets/${wallet}/harvest`).send(body);
  expect(HarvestResult.parse((await harvest({}).expect(200)).body)).toMatchObject({
    grossYieldMicros: '0',
  });

  // A year of interest on what the reserve lends out: our 15 cUSDC are worth more.
  router.kamino.accrue(63_072_000n);
  const { totalLiquiditySf, collateralSupply } = router.kamino.rate();
  const value = (15_000_000n * totalLiquiditySf) / (collateralSupply << 60n);
  const gross = value - 15_000_000n;
  expect(gross).toBeGreaterThan(0n);
  const done = HarvestResult.parse((await harvest({}).expect(200)).body);
  const skim = (gross * 500n) / 10_000n;
  expect(done).toMatchObject({
    outcome: 'harvested',
    grossYieldMicros: String(gross),
    protocolFeeMicros: String(skim),
    netYieldMicros: String(gross - skim),
  });
  expect(done.positions[0]).toMatchObject({ valueMicros: String(value) });
  expect(await position(wallet)).toMatchObject({
    stakedMicros: String(15_000_000n + gross - skim),
  });
  expect((await verifyLedger(t.db)).problems).toEqual([]);

  // The books agree with klend's Reserve: no drift of any kind, nothing unreadable.
  const report = await reconcileTestBooks(t);
  expect(report).toMatchObject({ positions: 1, unavailable: 0, aboveThreshold: 0 });
  expect(driftsFound(report)).toEqual({});

  // Withdraw everything (asked for more than it is worth: klend redeems every cUSDC the owner
  // holds). The router pays the skim on the yield to the treasury in the same transaction: the
  // treasury's balance is fees:protocol to the micro, the owner got principal + net yield.
  const all = await signAndExecute('withdraw', owner, String(value + 1_000_000n));
  expect(await settled(all.planId)).toMatchObject({ legs: [{ status: 'confirmed' }] });
  expect(solana.tokenBalance(cUsdc, owner.publicKey)).toBe(0n);
  const fees = (await request(t.app).get('/api/v1/svc/fees').expect(200)).body as {
    treasuries: Record<string, string | null>;
  };
  expect(fees.treasuries['solana']).toBe(router.treasury);
  const treasury = solana.usdcBalance(router.treasury);
  expect(treasury).toBeGreaterThan(0n);
  expect(await protocolFees(t)).toBe(treasury);
  expect(solana.usdcBalance(owner.publicKey)).toBe(30_000_000n + value - 15_000_000n - treasury);
  expect(await position(wallet)).toMatchObject({ stakedMicros: '0' });
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(driftsFound(await reconcileTestBooks(t))).toEqual({});
});

it('harvest (execute): the router realises the yield and pays its skim; withdraw everything', async () => {
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 30_000_000n);
  const treasuryBefore = solana.usdcBalance(router.treasury);
  const feesBefore = await protocolFees(t);
  const deposit = await signAndExecute('deposit', owner, '20000000');
  await settled(deposit.planId);
  router.kamino.accrue(31_536_000n);
  const { totalLiquiditySf, collateralSupply } = router.kamino.rate();
  const shares = solana.tokenBalance(router.kamino.ids.reserveCollateralMint, owner.publicKey);
  const value = (shares * totalLiquiditySf) / (collateralSupply << 60n);

  // execute:true books nothing; its plan withdraws the yield above the 20 USDC staked through
  // the router, which takes the skim on it with the registry's fee configuration.
  const { plan: realise } = await harvestExecute(t, wallet);
  expect(await protocolFees(t)).toBe(feesBefore);
  expect(realise.legs).toHaveLength(1);
  expect(BigInt(realise.legs[0]?.amountMicros ?? '0')).toBe(value - 20_000_000n);
  const realised = await signAndExecuteLeg(t, realise, owner);
  expect(await settled(realised.planId)).toMatchObject({ legs: [{ status: 'confirmed' }] });
  const logs = solana.transaction(realised.txId)?.logMessages ?? [];
  const skimLine = logs.find((line) => line.includes(`svc:${realised.planId} venue_skim amount=`));
  const skim = BigInt(skimLine?.split('amount=')[1] ?? '0');
  expect(skim).toBeGreaterThan(0n);
  expect(solana.usdcBalance(router.treasury) - treasuryBefore).toBe(skim);
  // The router's rule skims the yield of the receipts burnt; the rest of the protocol's share
  // stays in the position (fees:protocol, retained) until the receipts left leave.
  expect((await protocolFees(t)) - feesBefore).toBeGreaterThanOrEqual(skim);
  expect((await verifyLedger(t.db)).problems).toEqual([]);

  // A partial withdrawal is grossed up: the owner receives the 5 USDC asked, the router's skim
  // on top (klend redeems whole cTokens rounded in the owner's favour: at most a micro more).
  const ownerBefore = solana.usdcBalance(owner.publicKey);
  const partial = await signAndExecute('withdraw', owner, '5000000');
  expect(await settled(partial.planId)).toMatchObject({ legs: [{ status: 'confirmed' }] });
  const partialLogs = solana.transaction(partial.txId)?.logMessages ?? [];
  expect(partialLogs.some((line) => /venue_skim amount=[1-9]/.test(line))).toBe(true);
  const got = solana.usdcBalance(owner.publicKey) - ownerBefore;
  expect(got >= 5_000_000n && got <= 5_000_001n).toBe(true);

  // Withdraw everything: the router pays the rest of the protocol's share on the way out.
  const all = await signAndExecute('withdraw', owner, String(value + 1_000_000n));
  expect(await settled(all.planId)).toMatchObject({ legs: [{ status: 'confirmed' }] });
  const collected = solana.usdcBalance(router.treasury) - treasuryBefore;
  expect((await protocolFees(t)) - feesBefore).toBe(collected);
  // Principal + net yield: what the venue paid for every cUSDC, less what the treasury got
  // (klend rounds each of the three redemptions down: a micro each may stay with the reserve).
  const received = solana.usdcBalance(owner.publicKey) - 10_000_000n;
  expect(received + collected).toBeLessThanOrEqual(value);
  expect(received + collected).toBeGreaterThanOrEqual(value - 3n);
  expect(await position(wallet)).toMatchObject({ stakedMicros: '0' });
  // Every skim the router paid is kept on its leg: reconciliation compares their sum with the
  // treasury's balance (treasury_below_books), which is all it ever received in this bed.
  expect((await readTreasuryReceipts(t.db)).get('solana')).toBe(
    solana.usdcBalance(router.treasury),
  );
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(driftsFound(await reconcileTestBooks(t))).toEqual({});
});
