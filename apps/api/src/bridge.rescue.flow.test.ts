import request from 'supertest';
import { decodeFunctionData, encodeFunctionData, parseAbi } from 'viem';
import type { Hex } from 'viem';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { verifyLedger } from '@yieldrouter/ledger';
import {
  BridgePlanDocument,
  BridgeRescueDocument,
  RoutesDocument,
  WebhookEvent,
} from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import { startTestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';
import type { CctpBridgeBed } from './testing/cctpBridgeBed';
import { startCctpBridgeBed } from './testing/cctpBridgeBed';
import { startInApiKeeper } from './testing/startInApiKeeper';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// Bridge failure and rescue on the two anvils: a burn whose attestation never comes within the
// window is failed by the keeper's bridge expiry (bridge.failed, signed, to the owner's
// webhook); the amount stays in flight; once the attestation exists the owner's rescue prepares
// the mint to the owner's address from the plan's record, and only that mint's confirmed receipt
// credits Arbitrum, once. Refusals (agent key, another destination, a bridge not failed) credit
// nothing.
const account = (index: number) => {
  const found = anvilAccounts()[index];
  if (!found) throw new Error('no anvil account');
  return found;
};
const owner = account(5);
const stranger = account(7);
const RECEIVE_MESSAGE = parseAbi([
  'function receiveMessage(bytes message, bytes attestation) returns (bool)',
]);
const FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

let bed: CctpBridgeBed;
let receiver: TestReceiver;
let t: TestApp;
let keeper: RunningKeeper | undefined;

beforeAll(async () => {
  bed = await startCctpBridgeBed();
  receiver = await startTestReceiver();
  await bed.base.fixtures.mintUsdc(owner.address, 500_000_000n);
  t = await startTestApp({
    ...bed.settings,
    SVC_BASE_BRIDGE_FEE_RECIPIENT: FEE_RECIPIENT,
    // A standard burn not attested 1 s after it settled is failed; the expiry looks every 200 ms.
    SVC_CCTP_ATTESTATION_WINDOW_STANDARD_MS: '1000',
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [owner.address] },
      { key: testKeys.agent, role: 'agent', wallets: [owner.address] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    SVC_KEEPER_HEARTBEAT_MS: '200',
    SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
    SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
    SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '0',
    SVC_KEEPER_RECONCILIATION_EVERY_MS: '0',
    SVC_KEEPER_BRIDGE_EXPIRY_EVERY_MS: '200',
    SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '200',
    SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '200',
  });
}, 120_000);
afterAll(async () => {
  await keeper?.close();
  await t?.close();
  await receiver?.close();
  await bed?.stop();
});
afterEach(() => bed.iris.setMode('ok'));

const post = (path: string, body: Record<string, unknown>, key?: string) => {
  const call = request(t.app).post(`/api/v1${path}`);
  return (key ? call.set('X-API-Key', key) : call).send(body);
};
const rescue = (body: Record<string, unknown>, key: string = testKeys.owner) =>
  post('/svc/bridge/rescue', body, key);
const balance = async (chain: string, bucket: string) =>
  (
    await t.db.ledgerAccount.findFirst({
      where: { wallet: owner.address, chain, bucket },
    })
  )?.balanceMicros ?? 0n;
const books = async () => ({
  inFlight: await balance('base', 'in_flight'),
  credited: await balance('arbitrum', 'liquid'),
});

/** A prepared Base → Arbitrum plan of 25 USDC (24.975 burned after the 10 bps fee). */
async function prepare() {
  const res = await post('/svc/bridge/plan', {
    sourceChain: 'base',
    destChain: 'arbitrum',
    amountMicros: '25000000',
    sourceAddress: owner.address,
    destinationAddress: owner.address,
  }).expect(200);
  const document = BridgePlanDocument.parse(res.body);
  expect(document.status).toBe('prepared');
  const { planId } = document;
  if (!planId) throw new Error('no planId');
  return { ...document, planId };
}

/** The owner signs the legs (all, or leaving out `skip`); the keeper settles the burn. */
async function burn(document: BridgePlanDocument, skip: readonly string[] = []) {
  let burnTx: { hash: Hex; ok: boolean } | undefined;
  for (const leg of document.legs ?? []) {
    if (skip.includes(leg.action)) continue;
    const sent = await bed.sendLeg(bed.base, leg, owner.privateKey);
    if (leg.action === 'burn') burnTx = sent;
    else expect(sent.ok).toBe(true);
  }
  const leg = document.legs?.find((entry) => entry.action === 'burn');
  if (!burnTx || !leg) throw new Error('no burn leg');
  const settled = await post(
    `/svc/plans/${document.planId}/legs/${leg.index}/settle`,
    { txId: burnTx.hash },
    testKeys.keeper,
  ).expect(200);
  return { ...burnTx, status: String(settled.body.status) };
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const failedEvents = (planId: string) =>
  t.db.outboxEvent
    .findMany({ where: { type: 'bridge.failed', wallet: owner.address } })
    .then((events) =>
      events.filter((event) => (event.payload as { planId?: string }).planId === planId),
    );

describe('POST /svc/bridge/rescue and bridge.failed (CCTP v2, Base → Arbitrum)', () => {
  it('a bridge in flight within its window is not rescued (409), nothing credited', async () => {
    bed.iris.setMode('pending');
    const document = await prepare();
    const early = await rescue({ planId: document.planId }).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_FAILED', field: 'body.planId' });
    const burned = await burn(document);
    expect(burned).toMatchObject({ ok: true, status: 'confirmed' });
    const inFlight = await rescue({ planId: document.planId }).expect(409);
    expect(inFlight.body.code).toBe('BRIDGE_NOT_FAILED');
    expect(inFlight.body.message).toContain('in flight');
    expect(await books()).toEqual({ inFlight: 24_975_000n, credited: 0n });
    // Left in flight here; the keeper of the next test fails it too (its window is long past).
  });

  it('attestation never arrives → keeper fails it → webhook → rescue to the owner → credited once', async () => {
    const created = await post(
      '/svc/webhooks',
      { url: receiver.url('/bridges'), eventTypes: ['bridge.failed', 'bridge.delivered'] },
      testKeys.owner,
    ).expect(201);
    receiver.setKeys([String(created.body.hmacKey)]);

    bed.iris.setMode('pending');
    const document = await prepare();
    const burned = await burn(document);
    expect(burned.status).toBe('confirmed');
    const before = await books();

    keeper = await startInApiKeeper(t);
    await until(async () => (await failedEvents(document.planId)).length === 1);
    const received = await receiver.waitForAccepted(2, 20_000);
    const events = received.map((delivery) => WebhookEvent.parse(delivery.body));
    expect(received.every((delivery) => delivery.verified)).toBe(true);
    const failed = events.find(
      (event) => event.type === 'bridge.failed' && event.data.planId === document.planId,
    );
    expect(failed?.data).toMatchObject({
      wallet: owner.address,
      sourceChain: 'base',
      destinationChain: 'arbitrum',
      amountMicros: '24975000',
      sourceTxId: burned.hash,
      refundTo: owner.address,
      rescue: { method: 'POST', path: '/api/v1/svc/bridge/rescue' },
    });
    expect(failed?.data).toMatchObject({
      reason: expect.stringMatching(/^attestation_window_expired/),
    });
    // Failed, not redirected: still in flight, nothing credited; failed once however often it runs.
    expect(await books()).toEqual(before);
    const delivery = await post(
      '/svc/bridge/delivery',
      { planId: document.planId },
      testKeys.keeper,
    );
    expect(delivery.body).toMatchObject({ bridgeStatus: 'failed', attestation: 'pending' });

    // Still not attested: the rescue is blocked, and nothing moves.
    const blocked = BridgeRescueDocument.parse(
      (await rescue({ planId: document.planId }).expect(200)).body,
    );
    expect(blocked).toMatchObject({
      status: 'blocked',
      bridgeStatus: 'failed',
      recipient: owner.address,
      inFlightMicros: '24975000',
    });
    expect(blocked.blockers?.map((entry) => entry.code)).toEqual(['bridge_attestation_pending']);

    // Refusals: an agent key, another destination (even with the owner's key).
    const agent = await rescue({ planId: document.planId }, testKeys.agent).expect(403);
    // SPEC's role table: the wrong role is 403 UNAUTHORIZED (issue 41).
    expect(agent.body.code).toBe('UNAUTHORIZED');
    for (const field of ['destinationAddress', 'recipient', 'mintRecipient']) {
      const locked = await rescue({ planId: document.planId, [field]: stranger.address }).expect(
        400,
      );
      expect(locked.body).toMatchObject({
        code: 'RESCUE_DESTINATION_LOCKED',
        field: `body.${field}`,
      });
    }
    expect(await books()).toEqual(before);

    // The attestation arrives: the owner's rescue is the mint to the owner's address.
    bed.iris.setMode('ok');
    const rescued = BridgeRescueDocument.parse(
      (await rescue({ planId: document.planId, destinationAddress: owner.address }).expect(200))
        .body,
    );
    expect(rescued).toMatchObject({
      status: 'prepared',
      ownerMustSign: true,
      chain: 'arbitrum',
      recipient: owner.address,
      failureReason: expect.stringMatching(/^attestation_window_expired/),
    });
    expect(rescued.legs?.map((leg) => [leg.action, leg.encoding])).toEqual([
      ['mint', 'evm-transaction-request'],
    ]);
    // Anyone may relay it; it mints to the owner only.
    const arbitrumBefore = await bed.usdcOf(bed.arbitrum, owner.address);
    const mint = await bed.sendLeg(bed.arbitrum, rescued.legs?.[0], stranger.privateKey);
    expect(mint.ok).toBe(true);
    expect((await bed.usdcOf(bed.arbitrum, owner.address)) - arbitrumBefore).toBe(24_975_000n);
    expect(await books()).toEqual(before);

    // Credited from the rescue mint's confirmed receipt, once.
    const credited = await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: mint.hash },
      testKeys.owner,
    ).expect(200);
    expect(credited.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '24975000',
    });
    expect(await books()).toEqual({
      inFlight: before.inFlight - 24_975_000n,
      credited: before.credited + 24_975_000n,
    });
    // The original mint leg now reverts (the message is used); neither it nor a replay credits.
    const original = await post(
      '/svc/bridge/delivery',
      { planId: document.planId },
      testKeys.owner,
    );
    expect(original.body).toMatchObject({ bridgeStatus: 'delivered', credited: false });
    const again = await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: mint.hash },
      testKeys.keeper,
    ).expect(200);
    expect(again.body).toMatchObject({ credited: false, replay: true });
    const late = await bed.sendLeg(bed.arbitrum, rescued.legs?.[0], owner.privateKey);
    expect(late.ok).toBe(false);
    await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: late.hash },
      testKeys.owner,
    ).expect(409);
    const rescueAgain = await rescue({ planId: document.planId }).expect(409);
    expect(rescueAgain.body.code).toBe('BRIDGE_NOT_FAILED');
    expect(await books()).toEqual({
      inFlight: before.inFlight - 24_975_000n,
      credited: before.credited + 24_975_000n,
    });
    expect(await failedEvents(document.planId)).toHaveLength(1);
    const delivered = await t.db.outboxEvent.findMany({
      where: { type: 'bridge.delivered', wallet: owner.address },
    });
    expect(delivered).toHaveLength(1);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it('a burn that reverts fails the plan, moves nothing, and is not rescuable', async () => {
    const document = await prepare();
    const before = await books();
    // Without the approval the burn's transferFrom reverts.
    const burned = await burn(document, ['approve']);
    expect(burned).toMatchObject({ ok: false, status: 'failed' });
    expect(await books()).toEqual(before);
    const res = await rescue({ planId: document.planId }).expect(409);
    expect(res.body).toMatchObject({ code: 'BRIDGE_NOT_FAILED' });
    expect(res.body.message).toContain('reverted');
    expect(await failedEvents(document.planId)).toHaveLength(0);
  });

  it("a reverted transaction that is not this message's mint fails nothing; the bridge delivers", async () => {
    const document = await prepare();
    await burn(document);
    const next = await post(
      '/svc/bridge/delivery',
      { planId: document.planId },
      testKeys.owner,
    ).expect(200);
    const leg = next.body.mintLeg as { transaction: { to: string; data: string } };
    // A receiveMessage of no message: the transmitter refuses it; it proves nothing of the plan.
    const unrelated = {
      transaction: {
        to: leg.transaction.to,
        data: encodeFunctionData({ abi: RECEIVE_MESSAGE, args: ['0x00', '0x00'] }),
      },
    };
    const reverted = await bed.sendLeg(bed.arbitrum, unrelated, owner.privateKey);
    expect(reverted.ok).toBe(false);
    const res = await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: reverted.hash },
      testKeys.owner,
    ).expect(422);
    expect(res.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    expect(await failedEvents(document.planId)).toHaveLength(0);
    const mint = await bed.sendLeg(bed.arbitrum, leg, owner.privateKey);
    expect(mint.ok).toBe(true);
    await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: mint.hash },
      testKeys.owner,
    ).expect(200);
    expect(await failedEvents(document.planId)).toHaveLength(0);
  });

  it('a mint that reverts marks the bridge failed (bridge.failed); the rescue mints to the owner', async () => {
    const document = await prepare();
    await burn(document);
    const next = await post(
      '/svc/bridge/delivery',
      { planId: document.planId },
      testKeys.owner,
    ).expect(200);
    const leg = next.body.mintLeg as { transaction: { to: string; data: string } };
    // One byte of the attestation's signature flipped: the transmitter refuses it, the mint reverts.
    const call = decodeFunctionData({ abi: RECEIVE_MESSAGE, data: leg.transaction.data as Hex });
    const [message, attestation] = call.args;
    const flipped =
      `${attestation.slice(0, 12)}${attestation.slice(12, 14) === 'ff' ? '00' : 'ff'}${attestation.slice(14)}` as Hex;
    const broken = {
      transaction: {
        to: leg.transaction.to,
        data: encodeFunctionData({ abi: RECEIVE_MESSAGE, args: [message, flipped] }),
      },
    };
    const reverted = await bed.sendLeg(bed.arbitrum, broken, owner.privateKey);
    expect(reverted.ok).toBe(false);
    const before = await books();
    const res = await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: reverted.hash },
      testKeys.owner,
    ).expect(422);
    expect(res.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    const events = await failedEvents(document.planId);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ reason: expect.stringMatching(/^mint_failed/) });
    expect(await books()).toEqual(before);

    const rescued = BridgeRescueDocument.parse(
      (await rescue({ planId: document.planId }).expect(200)).body,
    );
    expect(rescued).toMatchObject({ status: 'prepared', recipient: owner.address });
    const mint = await bed.sendLeg(bed.arbitrum, rescued.legs?.[0], owner.privateKey);
    expect(mint.ok).toBe(true);
    await post(
      '/svc/bridge/delivery',
      { planId: document.planId, destTxId: mint.hash },
      testKeys.owner,
    ).expect(200);
    expect((await books()).credited - before.credited).toBe(24_975_000n);
  });

  it('an unknown plan is 404; the route is listed as implemented', async () => {
    await rescue({ planId: 'plan_00000000000000000000000000000000' }).expect(404);
    await rescue({ planId: 'plan_x', to: owner.address }).expect(400);
    const routes = RoutesDocument.parse((await request(t.app).get('/api/v1/svc/routes')).body);
    expect(routes.routes.find((route) => route.operationId === 'rescueBridge')).toMatchObject({
      implemented: true,
      auth: ['owner'],
    });
  });
});
