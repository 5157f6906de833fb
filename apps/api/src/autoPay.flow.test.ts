import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import { verifyLedger } from '@yieldrouter/ledger';
import {
  AutoPayDocument,
  AutoPayPaidData,
  AutoPayPlanDocument,
  AutoPayRunDocument,
  HarvestResult,
  PlanDocument,
  PositionDocument,
  PublicActivityDocument,
} from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TestApp } from './testing/startTestApp';
import type { VaultBedApp } from './testing/startVaultBedApp';
import { startVaultBedApp } from './testing/startVaultBedApp';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';

// Auto-pay end to end on anvil: a venue deposit settled into a staked position, yield the vault's
// share price proves, a harvest, then a run the owner signs: the withdraw leg takes the payout
// out of the venue, one transfer leg per payee pays it, each settled from its receipt. The
// payees hold exactly floor(net × percentage / 100 × weightBps / 10000); principal stays; a run
// the position cannot cover above its principal is refused and stores nothing.

const ownerKey = `owner-${randomBytes(6).toString('hex')}`;
const agentKey = `agent-${randomBytes(6).toString('hex')}`;
const alice = `0x${randomBytes(20).toString('hex')}`;
const bob = `0x${randomBytes(20).toString('hex')}`;
const PERCENTAGE = 40n;
const WEIGHTS = { alice: 6_667n, bob: 3_333n };

let t: TestApp;
let evm: EvmBed;

let bed: VaultBedApp;
beforeAll(async () => {
  bed = await startVaultBedApp({
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: ['*'] },
      { key: agentKey, role: 'agent', wallets: ['*'] },
    ]),
  });
  ({ t, evm } = bed);
});
afterAll(() => bed?.close());

it('pays the payees exactly from harvested yield, settled from receipts; principal is refused', async () => {
  const privateKey = evm.anvil.accounts[5]?.privateKey;
  if (!privateKey) throw new Error('no anvil account');
  const account = privateKeyToAccount(privateKey);
  const owner = account.address;
  const chain = anvilChain(8453, evm.anvil.rpcUrl);
  const wallet = createWalletClient({ account, chain, transport: http(evm.anvil.rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(evm.anvil.rpcUrl) });
  await evm.fixtures.mintUsdc(owner, 20_000_000n);
  const send = async (leg: { transaction: unknown }) => {
    const tx = leg.transaction as { to: Address; data: Hex };
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 300_000n });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return hash;
  };
  const settle = (planId: string, legIndex: number, txId: string) =>
    request(t.app)
      .post(`/api/v1/svc/plans/${planId}/legs/${legIndex}/settle`)
      .set('X-API-Key', ownerKey)
      .send({ txId });
  const venuePlan = async (kind: 'deposit' | 'withdraw', amountMicros: string) => {
    const plan = PlanDocument.parse(
      (
        await request(t.app)
          .post(`/api/v1/svc/strategies/${kind}/plan`)
          .send({ strategyId: 'morpho', amountMicros, owner })
          .expect(200)
      ).body,
    );
    const legs = plan.legs ?? [];
    let hash = '';
    for (const leg of legs) hash = await send(leg);
    await settle(plan.planId ?? '', legs.length - 1, hash).expect(200);
  };
  const usdcOf = (address: string) =>
    reader.readContract({
      address: evm.fixtures.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as Address],
    });
  const staked = async () =>
    BigInt(
      PositionDocument.parse(
        (await request(t.app).get(`/api/v1/wallets/${owner}/position`).set('X-API-Key', ownerKey))
          .body,
      ).stakedMicros,
    );
  const path = `/api/v1/wallets/${owner}/auto-pay`;
  const config = {
    enabled: true,
    percentage: Number(PERCENTAGE),
    payees: [
      { payeeId: 'alice', address: alice, weightBps: Number(WEIGHTS.alice) },
      { payeeId: 'bob', address: bob, weightBps: Number(WEIGHTS.bob) },
    ],
    trigger: 'manual',
  };

  await venuePlan('deposit', '10000000');
  // The agent reads; only the owner sets.
  await request(t.app).put(path).set('X-API-Key', agentKey).send(config).expect(403);
  await request(t.app).put(path).set('X-API-Key', ownerKey).send(config).expect(200);
  const off = AutoPayDocument.parse(
    (await request(t.app).get(path).set('X-API-Key', agentKey).expect(200)).body,
  );
  expect(off).toMatchObject({ payableMicros: '0', next: null, config: { percentage: 40 } });

  // Yield accrues in the vault; the harvest books it, and the pool takes its percentage.
  await evm.fixtures.mintUsdc(evm.fixtures.vault, 1_000_000n);
  const harvest = HarvestResult.parse(
    (await request(t.app).post(`/api/v1/wallets/${owner}/harvest`).send({}).expect(200)).body,
  );
  const net = BigInt(harvest.netYieldMicros);
  expect(net > 0n).toBe(true);
  const share = (weight: bigint) => (net * PERCENTAGE * weight) / 1_000_000n;
  const expected = { alice: share(WEIGHTS.alice), bob: share(WEIGHTS.bob) };
  const total = expected.alice + expected.bob;

  const quote = AutoPayPlanDocument.parse(
    (await request(t.app).post('/api/v1/svc/auto-pay/plan').send({ wallet: owner }).expect(200))
      .body,
  );
  expect(quote).toMatchObject({ status: 'ready', stored: false, blockers: [] });
  expect(quote.split?.payouts.map((payout) => payout.amountMicros)).toEqual([
    String(expected.alice),
    String(expected.bob),
  ]);
  expect(quote.split?.remainderMicros).toBe(String((net * PERCENTAGE) / 100n - total));

  // The wallet's guardrails hold a run on a chain the owner has not allowed: stored blocked,
  // nothing committed against the pool; allowing the chain again lets the run through.
  const guardrails = `/api/v1/wallets/${owner}/guardrails`;
  await request(t.app)
    .put(guardrails)
    .set('X-API-Key', ownerKey)
    .send({ allowedChains: ['solana'] })
    .expect(200);
  const held = AutoPayRunDocument.parse(
    (await request(t.app).post(path).set('X-API-Key', ownerKey).send({}).expect(200)).body,
  );
  expect(held).toMatchObject({
    status: 'blocked',
    blockers: [expect.objectContaining({ code: 'guardrail_chain_not_allowed' })],
  });
  await request(t.app).put(guardrails).set('X-API-Key', ownerKey).send({}).expect(200);

  // The owner runs it (Idempotency-Key: a retry answers the same plan).
  const run = () =>
    request(t.app).post(path).set('X-API-Key', ownerKey).set('Idempotency-Key', 'pay-1').send({});
  const plan = AutoPayRunDocument.parse((await run().expect(200)).body);
  expect((await run().expect(200)).body.planId).toBe(plan.planId);
  await request(t.app).post(path).set('X-API-Key', agentKey).send({}).expect(403);
  expect(plan).toMatchObject({ kind: 'auto_pay', status: 'prepared', amountMicros: String(total) });
  expect(plan.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(total)],
    ['transfer', String(expected.alice)],
    ['transfer', String(expected.bob)],
  ]);
  const before = await staked();
  const planId = plan.planId ?? '';
  const hashes: string[] = [];
  for (const leg of plan.legs ?? []) hashes.push(await send(leg));
  // Issue 44: the withdraw and each payout did on chain exactly what their simulation said.
  await expectSimulatedAsMined(reader, plan, Object.fromEntries(hashes.entries()));
  // A transfer pays from what the withdraw leg brings out: it settles after it.
  expect((await settle(planId, 1, hashes[1] ?? '').expect(409)).body.code).toBe(
    'AUTO_PAY_WITHDRAW_NOT_SETTLED',
  );
  for (const [index, hash] of hashes.entries()) {
    expect((await settle(planId, index, hash).expect(200)).body).toMatchObject({
      status: 'confirmed',
    });
  }
  // Settlement compared each leg with its simulation: nothing diverged.
  const settledPlan = await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200);
  expect(settledPlan.body.divergences ?? []).toEqual([]);
  // The chain says what each payee got: exactly the split.
  expect(await usdcOf(alice)).toBe(expected.alice);
  expect(await usdcOf(bob)).toBe(expected.bob);
  const after = await staked();
  expect(after >= 10_000_000n).toBe(true);
  expect(before - after >= total).toBe(true);
  const events = await t.db.outboxEvent.findMany({
    where: { wallet: owner, type: 'auto_pay.paid' },
    orderBy: { seq: 'asc' },
  });
  expect(events.map((event) => AutoPayPaidData.strict().parse(event.payload))).toEqual([
    expect.objectContaining({ payeeId: 'alice', amountMicros: String(expected.alice) }),
    expect.objectContaining({ payeeId: 'bob', amountMicros: String(expected.bob) }),
  ]);
  const activity = PublicActivityDocument.parse(
    (await request(t.app).get('/api/v1/svc/activity').query({ wallet: owner }).expect(200)).body,
  );
  expect(activity.activity.filter((row) => row.planId === planId).map((row) => row.kind)).toEqual([
    'withdraw',
    'transfer',
    'transfer',
  ]);
  const paid = AutoPayDocument.parse(
    (await request(t.app).get(path).set('X-API-Key', ownerKey).expect(200)).body,
  );
  expect(paid.positions[0]).toMatchObject({ committedMicros: String(total) });

  // More yield, harvested; then the owner takes everything out: nothing above principal is
  // left to pay from, so the run is refused and stores nothing.
  await evm.fixtures.mintUsdc(evm.fixtures.vault, 2_000_000n);
  await request(t.app).post(`/api/v1/wallets/${owner}/harvest`).send({}).expect(200);
  await venuePlan('withdraw', String(await staked()));
  const plans = await t.db.plan.count({ where: { kind: 'auto_pay' } });
  const refused = await request(t.app).post(path).set('X-API-Key', ownerKey).send({}).expect(422);
  expect(refused.body.code).toBe('AUTO_PAY_WOULD_TOUCH_PRINCIPAL');
  expect(await t.db.plan.count({ where: { kind: 'auto_pay' } })).toBe(plans);

  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
