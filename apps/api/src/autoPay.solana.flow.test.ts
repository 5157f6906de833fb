import request from 'supertest';
import { Keypair } from '@solana/web3.js';
import { releaseLeg } from '@yieldrouter/engine';
import { findSettlementLeg, verifyLedger } from '@yieldrouter/ledger';
import { AutoPayRunDocument, HarvestResult, PlanDocument } from '@yieldrouter/schemas';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import { settledPlan, signAndSendLeg, startSolanaRouterApp } from './testing/solanaRouterApp';
import {
  chainAdapters,
  expectEachLegAsSimulated,
  expectLaterLegsDeferred,
} from './testing/legsAfterSimulation';
import { testKeys } from './testing/startTestApp';

// Auto-pay on the Solana program bed: our router program and its test venue run in litesvm. A
// deposit through the router, yield on the venue's share price, a harvest, then the run's legs
// signed by the owner and executed: withdraw_from_venue through the router, then one SPL
// TransferChecked (with the plan memo) per payee, each settled from its receipt.

let app: SolanaRouterApp;
beforeAll(async () => {
  app = await startSolanaRouterApp();
});
afterAll(() => app?.close());

const signAndSend = (leg: { transaction: unknown }, owner: Keypair) =>
  signAndSendLeg(app.solana, leg, owner);

const settle = (planId: string, legIndex: number, txId: string) =>
  request(app.t.app)
    .post(`/api/v1/svc/plans/${planId}/legs/${legIndex}/settle`)
    .set('X-API-Key', testKeys.owner)
    .send({ txId })
    .expect(200);

/** An owner with auto-pay for two payees (30%) and 15 USDC in kamino through the router. */
async function ownerWithPayees() {
  const { solana, t } = app;
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 20_000_000n);
  const payees = [Keypair.generate(), Keypair.generate()].map((key) => key.publicKey.toBase58());
  await request(t.app)
    .put(`/api/v1/wallets/${wallet}/auto-pay`)
    .set('X-API-Key', testKeys.owner)
    .send({
      enabled: true,
      percentage: 30,
      payees: [
        { payeeId: 'treasury', address: payees[0], weightBps: 7_001 },
        { payeeId: 'grants', address: payees[1], weightBps: 2_999 },
      ],
      trigger: 'manual',
    })
    .expect(200);
  const deposit = PlanDocument.parse(
    (
      await request(t.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({ strategyId: 'kamino', amountMicros: '15000000', owner: wallet })
        .expect(200)
    ).body,
  );
  const depositLeg = deposit.legs?.[0];
  if (!deposit.planId || !depositLeg) throw new Error(JSON.stringify(deposit));
  await settle(deposit.planId, 0, signAndSend(depositLeg, owner));
  return { owner, wallet, payees };
}

/** The owner's auto-pay run on Solana. */
const runAutoPay = async (wallet: string) =>
  AutoPayRunDocument.parse(
    (
      await request(app.t.app)
        .post(`/api/v1/wallets/${wallet}/auto-pay`)
        .set('X-API-Key', testKeys.owner)
        .send({ chain: 'solana' })
        .expect(200)
    ).body,
  );

/** The wallet's auto-pay pool on Solana (one position). */
const poolOf = async (wallet: string) => {
  const pool = await app.t.db.autoPayYield.findFirstOrThrow({ where: { wallet } });
  return { committedMicros: BigInt(pool.committedMicros) };
};

it('pays each payee exactly its share of the harvested yield, the withdraw leg grossed up for the skim', async () => {
  const { solana, router, t } = app;
  const { owner, wallet, payees } = await ownerWithPayees();

  // A year of interest in kamino's reserve on our 15 cUSDC: harvested, skimmed, the rest compounded.
  router.kamino.accrue(63_072_000n);
  const { totalLiquiditySf, collateralSupply } = router.kamino.rate();
  const gross = (15_000_000n * totalLiquiditySf) / (collateralSupply << 60n) - 15_000_000n;
  const harvest = HarvestResult.parse(
    (await request(t.app).post(`/api/v1/wallets/${wallet}/harvest`).send({}).expect(200)).body,
  );
  const net = BigInt(harvest.netYieldMicros);
  expect(gross).toBeGreaterThan(0n);
  expect(net).toBe(gross - (gross * 500n) / 10_000n);
  const expected = [(net * 30n * 7_001n) / 1_000_000n, (net * 30n * 2_999n) / 1_000_000n];

  const plan = await runAutoPay(wallet);
  const payout = expected[0]! + expected[1]!;
  // The withdraw leg is grossed up for the router's skim on the yield part of what it takes out
  // (issue #46, `grossUpRouterWithdrawal`): the venue pays the payout plus the skim.
  const legAmount = BigInt(plan.legs?.[0]?.amountMicros ?? '0');
  expect(legAmount).toBeGreaterThan(payout);
  expect(plan.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(legAmount)],
    ['transfer', String(expected[0])],
    ['transfer', String(expected[1])],
  ]);
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  const planId = plan.planId ?? '';
  const treasuryBefore = solana.usdcBalance(router.treasury);
  for (const [index, leg] of (plan.legs ?? []).entries()) {
    await settle(planId, index, signAndSend(leg, owner));
  }
  // The treasury received the skim the leg was grossed up by, the owner the payout, each payee
  // exactly its share, and no leg is flagged (the last payout is covered by what came out).
  expect(solana.usdcBalance(router.treasury) - treasuryBefore).toBe(legAmount - payout);
  const stored = await settledPlan(t, planId);
  expect(stored.legs.map((leg) => [leg.status, leg.settledAmountMicros, leg.reviewReason])).toEqual(
    [
      ['confirmed', String(payout), null],
      ['confirmed', String(expected[0]), null],
      ['confirmed', String(expected[1]), null],
    ],
  );
  expect(stored.divergences).toEqual([]);
  expect(payees.map((payee) => solana.usdcBalance(payee))).toEqual(expected);
  // The payees were paid from what came out: the owner's own USDC is untouched.
  expect(solana.usdcBalance(owner.publicKey)).toBe(5_000_000n);
  // The pool: the run took the payout, never the skim (it went to the treasury).
  expect((await poolOf(wallet)).committedMicros).toBe(payout);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

it('a run with its withdraw leg: each transfer simulated once the leg before settled, as landed', async () => {
  const { router, t } = app;
  const { owner, wallet } = await ownerWithPayees();
  router.kamino.accrue(63_072_000n);
  await request(t.app).post(`/api/v1/wallets/${wallet}/harvest`).send({}).expect(200);
  const plan = await runAutoPay(wallet);
  expectLaterLegsDeferred(plan.simulation, 'simulateTransaction', 3);
  const planId = plan.planId ?? '';
  await expectEachLegAsSimulated(
    'solana',
    t,
    planId,
    3,
    async (index) => {
      const txId = signAndSend(plan.legs?.[index] ?? { transaction: '' }, owner);
      await settle(planId, index, txId);
      return txId;
    },
    (txId) => chainAdapters(t).solana.readLegChanges!(txId),
  );
  // The withdraw leg pays the router's skim inside it (grossed up for it: see the test above),
  // and its simulation says so: the treasury's change is the skim the plan computed.
  const simulation = (await settledPlan(t, planId)).simulation;
  const withdraw = simulation?.status === 'simulated' ? simulation.legs[0] : undefined;
  expect(withdraw?.changes.filter((change) => change.role === 'treasury')).toEqual([
    expect.objectContaining({ account: router.treasuryUsdc, usdc: true }),
  ]);
});

it('a grossed-up withdraw leg released while open gives the pool back the payout, no more', async () => {
  const { router, t } = app;
  const { wallet } = await ownerWithPayees();
  router.kamino.accrue(63_072_000n);
  await request(t.app).post(`/api/v1/wallets/${wallet}/harvest`).send({}).expect(200);
  const plan = await runAutoPay(wallet);
  const [withdraw, ...transfers] = plan.legs ?? [];
  const payout = transfers.reduce((total, leg) => total + BigInt(leg.amountMicros), 0n);
  // The leg asks the venue for the payout plus the router's skim; the pool commits the payout.
  expect(BigInt(withdraw?.amountMicros ?? '0')).toBeGreaterThan(payout);
  expect((await poolOf(wallet)).committedMicros).toBe(payout);
  // The owner never signs it: it expires (as the keeper's leg expiry does).
  const leg = await findSettlementLeg(t.db, plan.planId ?? '', 0);
  if (!leg) throw new Error('no withdraw leg');
  await releaseLeg({ db: t.db, now: new Date() }, leg, 'expired', 'unsigned past its TTL');
  expect((await poolOf(wallet)).committedMicros).toBe(0n);
});
