// Auto-pay on the Sui bed: the owner holds suilend's receipts, so the run's withdraw leg carries
// the withdraw plan's skim to the treasury in its own transaction; then one transfer leg per
// payee (a PTB tagged with the plan that sends a coinWithBalance of the payout), each resolved,
// signed and executed by the owner's wallet and settled from sui_getTransactionBlock. A payout
// whose leg expired is paid by the next run from the owner's liquid: one leg, dry-run at
// prepare, and the dry run is what lands.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import request from 'supertest';
import { releaseLeg } from '@yieldrouter/engine';
import { findSettlementLeg } from '@yieldrouter/ledger';
import {
  AutoPayPaidData,
  AutoPayRunDocument,
  PlanSimulatedData,
  StoredPlanDocument,
} from '@yieldrouter/schemas';
import { expectEachLegAsSimulated, expectLaterLegsDeferred } from './testing/legsAfterSimulation';
import { testKeys } from './testing/startTestApp';
import { SUI_TEST_USDC } from './testing/startSuiSwapBedApp';
import { useSuiVenueBedApp } from './testing/startSuiVenueBedApp';
import {
  executeSuiLeg,
  expectBooksClean,
  fundedSuiOwner,
  harvestWallet,
  signAndSettleSuiLeg,
  strategyPlan,
  suiUsdcOf,
} from './testing/suiBedLegs';

const TREASURY = new Ed25519Keypair().toSuiAddress();
const PERCENTAGE = 40n;
const WEIGHTS = { alice: 6_667n, bob: 3_333n };

const beds = useSuiVenueBedApp({ SVC_SUI_TREASURY: TREASURY });
const bedApp = () => beds().bed;
const app = () => bedApp().t.app;
const db = () => bedApp().t.db;
const usdcOf = (owner: string) => suiUsdcOf(bedApp(), owner);

const settle = (planId: string, legIndex: number, txId: string) =>
  request(app())
    .post(`/api/v1/svc/plans/${planId}/legs/${legIndex}/settle`)
    .set('X-API-Key', testKeys.owner)
    .send({ txId });

const storedPlan = async (planId: string) =>
  StoredPlanDocument.parse(
    (await request(app()).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );

/** PUT the owner's auto-pay config (manual trigger). */
const putConfig = (
  owner: string,
  percentage: number,
  payees: readonly { payeeId: string; address: string; weightBps: number }[],
) =>
  request(app())
    .put(`/api/v1/wallets/${owner}/auto-pay`)
    .set('X-API-Key', testKeys.owner)
    .send({ enabled: true, percentage, payees, trigger: 'manual' });

/** A funded owner with 20 USDC in suilend, its interest harvested; the net yield booked. */
async function harvestedOwner(
  payees: readonly { payeeId: string; weightBps: number }[],
  percentage: bigint,
) {
  const { wallet, owner } = fundedSuiOwner(bedApp(), 30_000_000n);
  const addresses = payees.map(() => new Ed25519Keypair().toSuiAddress());
  await putConfig(
    owner,
    Number(percentage),
    payees.map((payee, index) => ({ ...payee, address: addresses[index] as string })),
  ).expect(200);
  await signAndSettleSuiLeg(
    bedApp(),
    await strategyPlan(bedApp(), 'deposit', 'suilend', owner, 20_000_000n),
    wallet,
  );
  beds().venues['suilend']?.accrue();
  const harvest = await harvestWallet(bedApp(), owner);
  expect(harvest.outcome).toBe('harvested');
  const net = BigInt(harvest.netYieldMicros);
  expect(net).toBeGreaterThan(0n);
  return { wallet, owner, addresses, net };
}

const runAutoPay = async (owner: string) => {
  const res = await request(app())
    .post(`/api/v1/wallets/${owner}/auto-pay`)
    .set('X-API-Key', testKeys.owner)
    .send({ chain: 'sui' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return AutoPayRunDocument.parse(res.body);
};

it('a payee that is not a Sui address is 400 naming it; nothing is stored', async () => {
  const { owner } = fundedSuiOwner(bedApp(), 0n);
  const sol = 'So11111111111111111111111111111111111111112';
  const res = await putConfig(owner, 10, [
    { payeeId: 'sol', address: sol, weightBps: 10_000 },
  ]).expect(400);
  expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.payees.0.address' });
  expect(await db().autoPayConfig.count({ where: { wallet: owner } })).toBe(0);
});

it('pays each payee exactly its share through Sui transfer legs, settled from the chain', async () => {
  const { wallet, owner, addresses, net } = await harvestedOwner(
    [
      { payeeId: 'alice', weightBps: Number(WEIGHTS.alice) },
      { payeeId: 'bob', weightBps: Number(WEIGHTS.bob) },
    ],
    PERCENTAGE,
  );
  const [alice, bob] = addresses as [string, string];
  const share = (weight: bigint) => (net * PERCENTAGE * weight) / 1_000_000n;
  const expected = { alice: share(WEIGHTS.alice), bob: share(WEIGHTS.bob) };
  const total = expected.alice + expected.bob;

  const plan = await runAutoPay(owner);
  expect(plan).toMatchObject({ kind: 'auto_pay', status: 'prepared', amountMicros: String(total) });
  const skim = BigInt(plan.skim?.skimMicros ?? '0');
  expect(skim).toBeGreaterThan(0n);
  expect(plan.skim).toMatchObject({ treasury: TREASURY, grossMicros: String(total + skim) });
  expect(plan.legs?.map((leg) => [leg.action, leg.amountMicros, leg.encoding])).toEqual([
    ['withdraw', String(total + skim), 'sui-transaction-json'],
    ['transfer', String(expected.alice), 'sui-transaction-json'],
    ['transfer', String(expected.bob), 'sui-transaction-json'],
  ]);
  // A dry run runs one transaction on the current state: the withdraw leg is dry-run, the
  // transfers wait for the leg before each.
  expect(plan.simulation).toMatchObject({
    status: 'simulated',
    legs: [
      { outcome: 'ok' },
      { outcome: 'deferred', waitsFor: 0 },
      { outcome: 'deferred', waitsFor: 1 },
    ],
  });

  const planId = plan.planId ?? '';
  const usdcBefore = await usdcOf(owner);
  const treasuryBefore = await usdcOf(TREASURY);
  const digests: string[] = [];
  for (const index of [0, 1, 2]) {
    digests.push((await executeSuiLeg(bedApp(), plan, wallet, index)).digest);
  }
  // A transfer pays from what the withdraw leg brings out: it settles after it.
  expect((await settle(planId, 1, digests[1] ?? '').expect(409)).body.code).toBe(
    'AUTO_PAY_WITHDRAW_NOT_SETTLED',
  );
  for (const [index, digest] of digests.entries()) {
    expect((await settle(planId, index, digest).expect(200)).body).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: String(
        index === 0 ? total : index === 1 ? expected.alice : expected.bob,
      ),
    });
  }
  // The chain: each payee holds exactly its share, the treasury the skim, the owner what it had.
  expect(await usdcOf(alice)).toBe(expected.alice);
  expect(await usdcOf(bob)).toBe(expected.bob);
  expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(skim);
  expect(await usdcOf(owner)).toBe(usdcBefore);

  // The books: every leg confirmed, the payouts written, auto_pay emptied, nothing to review
  // (the transfers were sent before their simulation ran, so it is not compared with them).
  const stored = await storedPlan(planId);
  expect(stored.divergences ?? []).toEqual([]);
  expect(stored.legs.map((leg) => [leg.status, leg.reviewReason])).toEqual([
    ['confirmed', null],
    ['confirmed', null],
    ['confirmed', null],
  ]);
  const events = await db().outboxEvent.findMany({
    where: { wallet: owner, type: 'auto_pay.paid' },
    orderBy: { seq: 'asc' },
  });
  expect(events.map((event) => AutoPayPaidData.strict().parse(event.payload))).toEqual([
    expect.objectContaining({
      payeeId: 'alice',
      payee: alice,
      amountMicros: String(expected.alice),
    }),
    expect.objectContaining({ payeeId: 'bob', payee: bob, amountMicros: String(expected.bob) }),
  ]);
  // The pool: the run took the payout (the skim went to the treasury, not out of the payees'
  // share), so what stays payable is the split's remainder, never the skim again.
  const pool = await db().autoPayYield.findFirstOrThrow({ where: { wallet: owner } });
  expect(BigInt(pool.committedMicros)).toBe(total);
  await expectBooksClean(bedApp());
});

it('a run with its withdraw leg: each transfer dry-run once the leg before settled, as landed', async () => {
  const { wallet, owner, addresses } = await harvestedOwner(
    [
      { payeeId: 'alice', weightBps: Number(WEIGHTS.alice) },
      { payeeId: 'bob', weightBps: Number(WEIGHTS.bob) },
    ],
    PERCENTAGE,
  );
  const plan = await runAutoPay(owner);
  const planId = plan.planId ?? '';
  expectLaterLegsDeferred(plan.simulation, 'dryRunTransactionBlock', 3);
  // Each leg signed once the plan, fetched again, shows it simulated; it lands as simulated.
  const settled = await expectEachLegAsSimulated(
    'sui',
    bedApp().t,
    planId,
    3,
    async (index) => {
      const { digest } = await executeSuiLeg(bedApp(), plan, wallet, index);
      await settle(planId, index, digest).expect(200);
      return digest;
    },
    (digest) => bedApp().adapters.sui.readLegChanges!(digest),
  );
  expect(settled.legs.map((leg) => leg.reviewReason)).toEqual(settled.legs.map(() => null));
  // The payees' sides are shown: each transfer's payee.
  const simulation = (await storedPlan(planId)).simulation;
  const payees = simulation?.status === 'simulated' ? simulation.legs.slice(1) : [];
  expect(
    payees.map((leg) => leg.changes.find((change) => change.role === 'payee')?.account),
  ).toEqual(addresses);
  const events = await db().outboxEvent.findMany({
    where: { wallet: owner, type: 'plan.simulated' },
    orderBy: { seq: 'asc' },
  });
  expect(events.map((event) => PlanSimulatedData.strict().parse(event.payload))).toEqual([
    expect.objectContaining({ planId, legIndex: 1, afterLegIndex: 0, findings: [] }),
    expect.objectContaining({ planId, legIndex: 2, afterLegIndex: 1, findings: [] }),
  ]);
  await expectBooksClean(bedApp());
});

it('an expired payout is paid by the next run from liquid: dry-run at prepare, as landed', async () => {
  const { wallet, owner, addresses, net } = await harvestedOwner(
    [{ payeeId: 'carol', weightBps: 10_000 }],
    100n,
  );
  const [carol] = addresses as [string];
  const first = await runAutoPay(owner);
  expect(first.legs?.map((leg) => leg.action)).toEqual(['withdraw', 'transfer']);
  const firstId = first.planId ?? '';
  const out = await executeSuiLeg(bedApp(), first, wallet, 0);
  await settle(firstId, 0, out.digest).expect(200);
  // The owner never signs the payout: it expires (as the keeper's leg expiry does), and its
  // share goes back to the owner's liquid and the pool.
  const leg = await findSettlementLeg(db(), firstId, 1);
  if (!leg) throw new Error('no payout leg');
  await releaseLeg({ db: db(), now: new Date() }, leg, 'expired', 'unsigned past its TTL');

  const returned = await db().autoPayYield.findFirstOrThrow({ where: { wallet: owner } });
  expect([BigInt(returned.committedMicros), BigInt(returned.returnedMicros)]).toEqual([0n, net]);
  const again = await runAutoPay(owner);
  expect(again.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['transfer', String(net)],
  ]);
  const simulation = again.simulation;
  if (simulation?.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  expect(simulation).toMatchObject({
    chain: 'sui',
    method: 'dryRunTransactionBlock',
    findings: [],
  });
  const [simulated] = simulation.legs;
  expect(simulated).not.toHaveProperty('unobserved');
  expect(simulated?.changes.filter((change) => change.usdc)).toEqual(
    expect.arrayContaining([
      { account: owner, role: 'owner', asset: SUI_TEST_USDC, usdc: true, delta: String(-net) },
      { account: carol, role: 'payee', asset: SUI_TEST_USDC, usdc: true, delta: String(net) },
    ]),
  );

  const planId = again.planId ?? '';
  const { digest } = await executeSuiLeg(bedApp(), again, wallet, 0);
  expect((await settle(planId, 0, digest).expect(200)).body).toMatchObject({
    status: 'confirmed',
    settledAmountMicros: String(net),
  });
  expect(await usdcOf(carol)).toBe(net);
  // What landed is what the dry run said, owner by owner and coin by coin.
  const landed = await bedApp().adapters.sui.readLegChanges!(digest);
  if (landed.status !== 'ok') throw new Error(JSON.stringify(landed));
  expect(
    landed.changes.map(({ account, asset, delta }) => ({ account, asset, delta: String(delta) })),
  ).toEqual(simulated?.changes.map(({ account, asset, delta }) => ({ account, asset, delta })));
  const stored = await storedPlan(planId);
  expect(stored.legs.map((row) => [row.status, row.reviewReason])).toEqual([['confirmed', null]]);
  expect(stored.divergences ?? []).toEqual([]);
  await expectBooksClean(bedApp());
});
