import request from 'supertest';
import type { Address, Hex } from 'viem';
import { createPublicClient, http } from 'viem';
import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import {
  BridgePlanDocument,
  PositionDocument,
  PublicActivityDocument,
  RoutesDocument,
  StoredPlanDocument,
} from '@yieldrouter/schemas';
import type { CctpBed, IrisFake } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { burnAndSettle as settleBurn } from './testing/bridgeBurnHelpers';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';
import type { TestApp } from './testing/startTestApp';
import { BRIDGE_FEE_RECIPIENT as FEE_RECIPIENT, startCctpBridgeApp } from './testing/cctpBridgeApp';
import { SAMPLE_ADDRESSES, testKeys } from './testing/startTestApp';

// A Base → Arbitrum bridge on the two anvils: the plan (fee transfer, approval, CCTP burn) is
// signed by the owner with an anvil key, the burn leg settles from its receipt into in_flight,
// the Iris-shaped fake attests the burn, the mint leg comes from /svc/bridge/delivery, and only
// the confirmed mint credits liquid on Arbitrum with the amount its receipt proves.
const owner = anvilAccount(4);
const stranger = anvilAccount(6);
const bridgeOwnerKey = 'test-bridge-owner-0123456789abcdef';

let cctp: CctpBed;
let base: EvmBed;
let arbitrum: EvmBed;
let iris: IrisFake;
let t: TestApp;

beforeAll(async () => {
  ({ cctp, t } = await startCctpBridgeApp(owner.address, bridgeOwnerKey, 500_000_000n));
  ({ base, arbitrum, iris } = cctp);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await cctp?.stop();
});
afterEach(() => iris.setMode('ok'));

const side = (bed: EvmBed) => (bed === base ? 'base' : 'arbitrum');
const usdcOf = (bed: EvmBed, who: Address) => cctp.usdcOf(side(bed), who);

/** Signs and sends one leg's transaction with `key` on `bed`; its hash once mined. */
const send = (bed: EvmBed, leg: unknown, key: Hex = owner.privateKey): Promise<Hex> =>
  cctp.send(side(bed), (leg as { transaction: { to: string; data: Hex } }).transaction, key);

const planBody = (extra: Record<string, unknown> = {}) => ({
  sourceChain: 'base',
  destChain: 'arbitrum',
  amountMicros: '25000000',
  sourceAddress: owner.address,
  destinationAddress: owner.address,
  ...extra,
});
const plan = (body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/svc/bridge/plan').send(body);
const deliver = (body: Record<string, unknown>, key: string = testKeys.keeper) =>
  request(t.app).post('/api/v1/svc/bridge/delivery').set('X-API-Key', key).send(body);
const balance = async (chain: string, bucket: string) =>
  (
    await t.db.ledgerAccount.findFirst({
      where: { wallet: owner.address, chain, bucket },
    })
  )?.balanceMicros ?? 0n;

const burnAndSettle = (document: BridgePlanDocument) =>
  settleBurn(t.app, cctp, document, { owner: owner.privateKey, keeper: testKeys.keeper });

const activityOf = async (planId: string | undefined) =>
  PublicActivityDocument.parse(
    (await request(t.app).get(`/api/v1/svc/activity?wallet=${owner.address}`).expect(200)).body,
  ).activity.filter((row) => row.planId === planId);
const inFlightOf = async () =>
  PositionDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${owner.address}/position`)
        .set('X-API-Key', bridgeOwnerKey)
        .expect(200)
    ).body,
  ).byChain.base.inFlightMicros;

describe('POST /svc/bridge/plan and /svc/bridge/delivery (CCTP v2, Base → Arbitrum)', () => {
  it('burns into in_flight, then credits Arbitrum only from the confirmed mint, once', async () => {
    const res = await plan(planBody({ fromChain: 'base', toChain: 'arbitrum' })).expect(200);
    const document = BridgePlanDocument.parse(res.body);
    expect(document).toMatchObject({
      kind: 'bridge',
      status: 'prepared',
      ownerMustSign: true,
      rail: 'cctp',
      speed: 'standard',
      sourceChain: 'base',
      destChain: 'arbitrum',
      bridgeStatus: 'awaiting_burn',
      // 10 bps service fee on the source, no rail fee on a standard transfer.
      feeMicros: '25000',
      burnAmountMicros: '24975000',
      minReceivedMicros: '24975000',
      feeLines: [
        {
          kind: 'service_bridge_fee',
          bps: 10,
          amountMicros: '25000',
          token: 'USDC',
          payer: 'owner',
        },
        { kind: 'rail_fee', amountMicros: '0', token: 'USDC', payer: 'owner' },
      ],
      eta: { finality: 'finalized', minFinalityThreshold: 2000 },
      disclosure: { refundTo: owner.address },
    });
    expect(document.disclosure?.risks.length).toBeGreaterThanOrEqual(4);
    expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
      ['transfer', true],
      ['approve', false],
      ['burn', true],
    ]);

    const baseBefore = await usdcOf(base, owner.address);
    const { burnTx, hashes, settled } = await burnAndSettle(document);
    expect(settled.status).toBe('confirmed');
    // Issue 44: the fee transfer, the approval and the burn did on chain exactly what their
    // simulation said, and settlement found nothing diverging.
    const baseReader = createPublicClient({ transport: http(base.anvil.rpcUrl) });
    await expectSimulatedAsMined(baseReader, document, hashes);
    const stored = await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200);
    expect(stored.body.divergences ?? []).toEqual([]);
    expect(baseBefore - (await usdcOf(base, owner.address))).toBe(25_000_000n);
    expect(await usdcOf(base, FEE_RECIPIENT)).toBeGreaterThanOrEqual(25_000n);
    // In flight on the source, credited nowhere yet.
    expect(await balance('base', 'in_flight')).toBe(24_975_000n);
    expect(await balance('arbitrum', 'liquid')).toBe(0n);
    // The service's fee is booked from its own receipt.
    expect(await readAccountBalance(t.db, { system: 'fees:protocol' })).toBe(25_000n);
    // The position and the activity show what is in flight.
    expect(await inFlightOf()).toBe('24975000');
    expect(await activityOf(document.planId)).toMatchObject([
      {
        legIndex: 0,
        kind: 'bridge',
        status: 'confirmed',
        amountOut: '25000',
        inFlightMicros: null,
      },
      {
        legIndex: 2,
        kind: 'bridge',
        chain: 'base',
        destChain: 'arbitrum',
        status: 'in_flight',
        txId: burnTx,
        amountIn: '24975000',
        amountOut: null,
        inFlightMicros: '24975000',
        destTxId: null,
      },
    ]);

    // Not attested yet: no mint leg, and a reported mint credits nothing.
    iris.setMode('pending');
    const waiting = await deliver({ planId: document.planId }).expect(200);
    expect(waiting.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'pending' });
    expect(waiting.body.mintLeg).toBeUndefined();
    const early = await deliver({ planId: document.planId, destTxId: burnTx }).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERABLE' });
    iris.setMode('ok');

    const next = await deliver({ planId: document.planId }).expect(200);
    expect(next.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(next.body.mintLeg).toMatchObject({
      action: 'mint',
      encoding: 'evm-transaction-request',
    });
    // A transaction the destination does not know yet, or one that is not this plan's mint,
    // credits nothing.
    const unknown = await deliver({ planId: document.planId, destTxId: burnTx }).expect(409);
    expect(unknown.body.code).toBe('BRIDGE_NOT_DELIVERABLE');
    const other = await arbitrum.fixtures.mintUsdc(owner.address, 1n);
    const forged = await deliver({ planId: document.planId, destTxId: other }).expect(422);
    expect(forged.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });

    // Anyone may relay the mint; it credits the owner's address only.
    const mintTx = await send(arbitrum, next.body.mintLeg, stranger.privateKey);
    expect(await usdcOf(arbitrum, owner.address)).toBe(24_975_001n);
    const delivered = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '24975000',
      destTxId: mintTx.toLowerCase(),
    });
    expect(await balance('base', 'in_flight')).toBe(0n);
    expect(await balance('arbitrum', 'liquid')).toBe(24_975_000n);
    expect(await inFlightOf()).toBe('0');
    expect((await activityOf(document.planId))[1]).toMatchObject({
      status: 'confirmed',
      amountOut: '24975000',
      inFlightMicros: '0',
      destTxId: mintTx.toLowerCase(),
    });
    // Reported twice: credited once.
    const again = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(again.body).toMatchObject({ credited: false, replay: true });
    expect(await balance('arbitrum', 'liquid')).toBe(24_975_000n);
    const events = await t.db.outboxEvent.findMany({
      where: { type: 'bridge.delivered', wallet: owner.address },
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      planId: document.planId,
      amountMicros: '24975000',
      sourceTxId: burnTx,
      destinationTxId: mintTx.toLowerCase(),
    });
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it('a burn not settled yet, or another wallet, gets no delivery', async () => {
    const document = BridgePlanDocument.parse((await plan(planBody())).body);
    const early = await deliver({ planId: document.planId }).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERABLE', field: 'body.planId' });
    const scoped = await deliver({ planId: document.planId }, testKeys.owner).expect(403);
    expect(scoped.body.code).toBe('WALLET_SCOPE');
    await deliver({ planId: 'plan_00000000000000000000000000000000' }).expect(404);
  });

  it('an unsupported lane is blocked with the lanes that run; stored', async () => {
    const res = await plan(
      planBody({ destChain: 'solana', destinationAddress: SAMPLE_ADDRESSES.solana }),
    ).expect(200);
    const document = BridgePlanDocument.parse(res.body);
    expect(document.status).toBe('blocked');
    expect(document.blockers?.map((entry) => entry.code)).toEqual(['bridge_lane_unsupported']);
    expect(document.supportedLanes).toEqual([
      { sourceChain: 'base', destChain: 'arbitrum' },
      { sourceChain: 'arbitrum', destChain: 'base' },
    ]);
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200)).body,
    );
    expect(stored.kind).toBe('bridge');
  });

  it.each([
    [
      'a foreign destination',
      { destinationAddress: stranger.address },
      422,
      'BRIDGE_DESTINATION_NOT_OWNER',
      'body.destinationAddress',
    ],
    ['the same chain both ways', { destChain: 'base' }, 400, 'BAD_REQUEST', 'body.destChain'],
    ['aliases that disagree', { dstChain: 'base' }, 400, 'BAD_REQUEST', 'destChain'],
    ['no source chain', { sourceChain: undefined }, 400, 'BAD_REQUEST', 'sourceChain'],
    ['amount 0', { amountMicros: '0' }, 400, 'BAD_REQUEST', 'amountMicros'],
    [
      'amount over 2^63 − 1',
      { amountMicros: '9223372036854775808' },
      400,
      'BAD_REQUEST',
      'amountMicros',
    ],
    ['below the minimum', { amountMicros: '999999' }, 400, 'BAD_REQUEST', 'body.amountMicros'],
    [
      'a source address of another chain',
      { sourceAddress: SAMPLE_ADDRESSES.solana },
      400,
      'BAD_REQUEST',
      'body.sourceAddress',
    ],
    ['an unknown rail', { rail: 'wormhole' }, 400, 'BAD_REQUEST', 'rail'],
  ])('%s → refused, nothing stored', async (_name, change, status, code, field) => {
    const before = await t.db.plan.count();
    const res = await plan(planBody(change)).expect(status);
    expect(res.body.code).toBe(code);
    expect(`${res.body.field ?? ''} ${res.body.message}`).toContain(field);
    expect(await t.db.plan.count()).toBe(before);
  });

  it('lists the plan and delivery routes as implemented', async () => {
    const routes = RoutesDocument.parse((await request(t.app).get('/api/v1/svc/routes')).body);
    for (const operationId of ['prepareBridgePlan', 'confirmBridgeDelivery']) {
      expect(routes.routes.find((route) => route.operationId === operationId)).toMatchObject({
        implemented: true,
      });
    }
  });
});
