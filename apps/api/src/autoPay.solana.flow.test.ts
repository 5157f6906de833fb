import request from 'supertest';
import { Keypair } from '@solana/web3.js';
import { verifyLedger } from '@yieldrouter/ledger';
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

it('pays each payee exactly its share of the harvested yield through SPL transfers', async () => {
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
  expect(plan.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(expected[0]! + expected[1]!)],
    ['transfer', String(expected[0])],
    ['transfer', String(expected[1])],
  ]);
  const planId = plan.planId ?? '';
  // The withdraw leg pays the router's skim on the yield part of what it takes out to the
  // treasury (issue #46): the owner receives the leg's amount less that skim.
  const treasuryBefore = solana.usdcBalance(router.treasury);
  let skim = 0n;
  for (const [index, leg] of (plan.legs ?? []).entries()) {
    const settled = await settle(planId, index, signAndSend(leg, owner));
    if (index === 0) skim = solana.usdcBalance(router.treasury) - treasuryBefore;
    expect(settled.body).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: String(BigInt(leg.amountMicros) - (index === 0 ? skim : 0n)),
    });
  }
  expect(skim).toBeGreaterThan(0n);
  expect(payees.map((payee) => solana.usdcBalance(payee))).toEqual(expected);
  // What came out went to the payees; the skim came out of the owner's USDC (see
  // docs/design-proposal-skim.md: withdraw legs do not yet gross up for it).
  expect(solana.usdcBalance(owner.publicKey)).toBe(5_000_000n - skim);
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
  // The withdraw leg pays the router's skim inside it (not grossed up: see the test above), and
  // its simulation says so: the treasury's change is the skim the plan computed.
  const simulation = (await settledPlan(t, planId)).simulation;
  const withdraw = simulation?.status === 'simulated' ? simulation.legs[0] : undefined;
  expect(withdraw?.changes.filter((change) => change.role === 'treasury')).toEqual([
    expect.objectContaining({ account: router.treasuryUsdc, usdc: true }),
  ]);
});
