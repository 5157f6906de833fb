import request from 'supertest';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { waitFor } from '@yieldrouter/jobs/testing';
import { DepositPlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';
import { SWAP_FEE_RECIPIENT } from './testing/startSwapBedApp';
import { startCrossChainSwapBeds } from './testing/crossChainSwapBeds';
import { settlementWatchKeeperSettings, startInApiKeeper } from './testing/startInApiKeeper';
import {
  crossChainDepositHelpers,
  crossChainDepositSettings,
} from './testing/crossChainDepositHelpers';

// A cross-chain deposit from another token (issue 18, item 5, "bridge → (swap) → deposit"): the
// owner's WETH is on Base, the venue (fluid, the bed's ERC-4626 vault) on Arbitrum. With
// `bridge: true`, one plan: the swap of the WETH into USDC on Base (0x fake over the bed's
// pair), the bridge of the swap's minimum out (Base → Arbitrum), then the deposit on Arbitrum of
// what the bridge delivers at least. The bridge waits for the swap; the deposit for the delivery.
const owner = anvilAccount(7);
const ownerKey = 'test-xswap-owner-0123456789abcdef';
const WETH_IN = 10n ** 16n; // 0.01 WETH ≈ 30 USDC at the bed pair's 3,000 USDC/WETH

let cctp: CctpBed;
let fake: ZeroExFake;
let t: TestApp;

beforeAll(async () => {
  ({ cctp, fake, t } = await startCrossChainSwapBeds({ address: owner.address, key: ownerKey }));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await cctp?.stop();
});
afterEach(() => fake.setMode('ok'));

/** POST /execute with the owner's signed bytes of a leg (signed offline: never mined here). */
const execute = async (planId: string | undefined, legIndex: number, leg: unknown) => {
  const tx = (leg as { transaction: { to: Address; data: Hex } }).transaction;
  const signedTransaction = await privateKeyToAccount(owner.privateKey).signTransaction({
    chainId: 8453,
    to: tx.to,
    data: tx.data,
    gas: 500_000n,
    nonce: 1_000,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  return request(t.app)
    .post('/api/v1/svc/strategies/deposit/execute')
    .send({ planId, legIndex, signedTransaction });
};

/** The plan's legs, in order, and their chains: swap, bridge, then deposit legs. */
const LEGS = [
  ['approve', 'base'],
  ['swap', 'base'],
  ['transfer', 'base'],
  ['approve', 'base'],
  ['burn', 'base'],
  ['approve', 'arbitrum'],
  ['deposit', 'arbitrum'],
];

const depositPlan = (body: Record<string, unknown> = {}, app = t) =>
  request(app.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({
      strategyId: 'fluid',
      owner: owner.address,
      amountMicros: String(WETH_IN),
      token: 'WETH',
      sourceChain: 'base',
      bridge: true,
      ...body,
    });

const { balance, send, settle, deliver, activityOf, positions } = crossChainDepositHelpers(
  () => t,
  () => cctp,
  owner,
);

describe('cross-chain deposit from WETH with bridge: true (swap on Base → bridge → Arbitrum)', () => {
  it('swap, bridge and deposit legs under one planId; each waits for the one before', async () => {
    const plan = DepositPlanDocument.parse((await depositPlan().expect(200)).body);
    const quoted = BigInt(plan.quotedAmountOutMicros ?? '0');
    const minOut = BigInt(plan.minAmountOutMicros ?? '0');
    expect(quoted).toBeGreaterThan(0n);
    expect(minOut).toBe((quoted * 9_900n) / 10_000n);
    // The bridge takes the swap's minimum out: its 10 bps service fee, no rail fee (standard).
    const bridgeFee = minOut / 1_000n;
    const received = minOut - bridgeFee;
    expect(plan).toMatchObject({
      kind: 'deposit',
      status: 'prepared',
      chain: 'arbitrum',
      venueId: 'fluid',
      amountMicros: String(WETH_IN),
      inputToken: 'WETH',
      outputToken: 'USDC',
      amountInMicros: String(WETH_IN),
      quoteSource: '0x',
      // The USDC fees (the bridge's); the swap's fee lines are in WETH.
      feeMicros: String(bridgeFee),
      feeLines: [
        { kind: 'service_swap_fee', bps: 10, amountMicros: String(WETH_IN / 1000n), token: 'WETH' },
        expect.objectContaining({ kind: 'pool_fee', token: 'WETH' }),
      ],
      // The cost basis: what the bridge delivers at least, net of the swap's and bridge's cost.
      depositMicros: String(received),
      bridge: {
        sourceChain: 'base',
        destChain: 'arbitrum',
        burnAmountMicros: String(received),
        minReceivedMicros: String(received),
      },
    });
    const legs = plan.legs ?? [];
    expect(legs.map((leg) => [leg.action, leg['chain']])).toEqual(LEGS);
    expect(legs.map((leg) => BigInt(leg.amountMicros))).toEqual([
      WETH_IN,
      WETH_IN,
      bridgeFee,
      ...Array<bigint>(4).fill(received),
    ]);
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${plan.planId}`).expect(200)).body,
    );
    expect(stored.legs.map((leg) => [leg.action, leg.chain])).toEqual(
      legs.map((leg) => [leg.action, leg['chain']]),
    );
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);

    // The owner signs the swap on Base; the bridge legs before it settled: 409, nothing recorded.
    await send('base', legs[0]);
    const swapTx = await send('base', legs[1]);
    for (const index of [2, 4]) {
      const early = await settle(plan.planId, index, `0x${'ab'.repeat(32)}`).expect(409);
      expect(early.body).toMatchObject({ code: 'SWAP_NOT_SETTLED', field: 'legIndex' });
    }
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
    // The quote's life over: the burn is refused by it while the swap is open (409), not after.
    await t.db.$executeRaw`
      UPDATE plans SET swap = jsonb_set(swap, '{expiresAt}', to_jsonb(${new Date(Date.now() - 1_000).toISOString()}::text))
      WHERE id = ${plan.planId}`;
    const expired = await execute(plan.planId, 4, legs[4]);
    expect([expired.status, expired.body.code]).toEqual([409, 'QUOTE_EXPIRED']);
    const swapped = await settle(plan.planId, 1, swapTx).expect(200);
    expect(swapped.body).toMatchObject({ status: 'confirmed' });
    // (Base's execution mode is off in the tests: the burn now gets past the quote to that.)
    const past = await execute(plan.planId, 4, legs[4]);
    expect([past.status, past.body.code]).toEqual([422, 'BROADCAST_DISABLED']);
    // The fill above the minimum stays liquid on Base (the minimum goes on to the bridge).
    expect(await balance('base', 'liquid')).toBe(quoted - minOut);

    // Now the bridge legs on Base: the fee and the burn settle from their receipts.
    const feeTx = await send('base', legs[2]);
    await send('base', legs[3]);
    const burnTx = await send('base', legs[4]);
    await settle(plan.planId, 2, feeTx).expect(200);
    expect((await settle(plan.planId, 4, burnTx).expect(200)).body).toMatchObject({
      status: 'confirmed',
    });
    expect(await balance('base', 'in_flight')).toBe(received);
    const early = await settle(plan.planId, 6, `0x${'cd'.repeat(32)}`).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });

    // Delivered on Arbitrum, then deposited from there.
    const next = await deliver({ planId: plan.planId }).expect(200);
    const mintTx = await send('arbitrum', next.body.mintLeg);
    await deliver({ planId: plan.planId, destTxId: mintTx }).expect(200);
    expect(await balance('base', 'in_flight')).toBe(0n);
    expect(await balance('arbitrum', 'liquid')).toBe(received);
    await send('arbitrum', legs[5]);
    const depositTx = await send('arbitrum', legs[6]);
    expect((await settle(plan.planId, 6, depositTx).expect(200)).body).toMatchObject({
      status: 'confirmed',
    });
    expect(await balance('arbitrum', 'liquid')).toBe(0n);
    expect(await balance('base', 'liquid')).toBe(quoted - minOut);
    expect(await cctp.usdcOf('base', owner.address)).toBe(quoted - minOut);

    // Activity: the swap row, the bridge rows, then the deposit row, under the plan.
    expect(await activityOf(plan.planId)).toEqual([
      [1, 'swap', 'base', 'confirmed'],
      [2, 'bridge', 'base', 'confirmed'],
      [4, 'bridge', 'base', 'confirmed'],
      [6, 'deposit', 'arbitrum', 'confirmed'],
    ]);
    // The cost basis is what the bridge delivered at least: ROI is never overstated.
    expect(await positions()).toMatchObject([
      { chain: 'arbitrum', venueId: 'fluid', depositedMicros: String(received) },
    ]);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('a route with stake and bridge: true: the same legs; nothing reserved; 409s in order', async () => {
    const res = await request(t.app)
      .post(`/api/v1/wallets/${owner.address}/route`)
      .set('X-API-Key', ownerKey)
      .send({
        amountMicros: String(WETH_IN),
        token: 'WETH',
        chain: 'arbitrum',
        stake: true,
        sourceChain: 'base',
        bridge: true,
      })
      .expect(200);
    const plan = DepositPlanDocument.parse(res.body);
    expect(plan).toMatchObject({
      kind: 'route',
      status: 'prepared',
      chain: 'arbitrum',
      venueId: 'fluid',
      pendingInMicros: '0',
      inputToken: 'WETH',
      bridge: { sourceChain: 'base', destChain: 'arbitrum' },
    });
    expect(plan.depositMicros).toBe(plan.bridge?.minReceivedMicros);
    expect(plan.legs?.map((leg) => [leg.action, leg['chain']])).toEqual(LEGS);
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
    const burn = await settle(plan.planId, 4, `0x${'12'.repeat(32)}`).expect(409);
    expect(burn.body).toMatchObject({ code: 'SWAP_NOT_SETTLED' });
    const deposit = await settle(plan.planId, 6, `0x${'34'.repeat(32)}`).expect(409);
    expect(deposit.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
  });
});

describe('cross-chain deposit from WETH without bridge: true', () => {
  it.each([
    ['deposit plan', () => depositPlan({ bridge: undefined })],
    [
      'route',
      () =>
        request(t.app)
          .post(`/api/v1/wallets/${owner.address}/route`)
          .set('X-API-Key', ownerKey)
          .send({
            amountMicros: String(WETH_IN),
            token: 'WETH',
            chain: 'arbitrum',
            stake: true,
            sourceChain: 'base',
          }),
    ],
  ])(
    '%s: bridge_required names the swap on the source chain first, and no amount in WETH units',
    async (_, send) => {
      const plan = (await send().expect(200)).body as {
        status: string;
        planId?: string;
        blockers?: { code: string; details?: Record<string, string> }[];
      };
      expect(plan.status).toBe('blocked');
      const found = plan.blockers?.find((entry) => entry.code === 'bridge_required');
      expect(found?.details).toMatchObject({
        route: 'POST /api/v1/svc/bridge/plan',
        token: 'WETH',
        sourceChain: 'base',
        destChain: 'arbitrum',
      });
      expect(found?.details?.['swapFirst']).toContain('swap the WETH into USDC on base first');
      expect(found?.details).not.toHaveProperty('amountMicros');
      expect(JSON.parse(found?.details?.['body'] ?? '{}')).not.toHaveProperty('amountMicros');
      expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
    },
  );
});

describe('swap → bridge → deposit under the keeper', () => {
  let watched: TestApp;
  let keeper: RunningKeeper | undefined;
  beforeAll(async () => {
    watched = await startTestApp({
      ...crossChainDepositSettings(cctp, { address: owner.address, key: ownerKey }),
      ...settlementWatchKeeperSettings,
      SVC_KEEPER_BRIDGE_WATCH_EVERY_MS: '0',
      SVC_ZEROX_BASE_URL: fake.url,
      SVC_BASE_SWAP_FEE_RECIPIENT: SWAP_FEE_RECIPIENT,
      SVC_BASE_SWAP_TOKENS: `WETH:${cctp.base.fixtures.weth}:18`,
    });
    keeper = await startInApiKeeper(watched);
  });
  afterAll(async () => {
    await keeper?.close();
    await watched?.close();
  });

  const legStatus = async (planId: string, legIndex: number) =>
    (
      await watched.db.planLeg.findUnique({
        where: { planId_legIndex: { planId, legIndex } },
      })
    )?.status;

  it('the fee and burn legs, on chain already, wait for the swap leg; then settle', async () => {
    const plan = DepositPlanDocument.parse((await depositPlan({}, watched).expect(200)).body);
    const planId = plan.planId ?? '';
    const legs = plan.legs ?? [];
    const at = (action: string) => legs.findIndex((leg) => leg.action === action);
    const hashes = new Map<number, Hex>();
    for (const [index, leg] of legs.entries()) {
      if (leg['chain'] === 'base') hashes.set(index, await send('base', leg));
    }
    const submit = (legIndex: number) =>
      markLegSubmitted(watched.db, {
        planId,
        legIndex,
        txId: hashes.get(legIndex) as Hex,
        now: new Date(),
      });
    await submit(at('transfer'));
    await submit(at('burn'));
    // Several watch runs: both stay submitted and nothing is booked while the swap is open.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await legStatus(planId, at('transfer'))).toBe('submitted');
    expect(await legStatus(planId, at('burn'))).toBe('submitted');
    expect(await watched.db.journalEntry.count({ where: { planId } })).toBe(0);

    // The swap leg is reported: it settles, then the fee and the burn do.
    await submit(at('swap'));
    await waitFor(
      async () => ((await legStatus(planId, at('burn'))) === 'confirmed' ? true : undefined),
      15_000,
      'the burn to settle after the swap',
    );
    expect(await legStatus(planId, at('swap'))).toBe('confirmed');
    const inFlight = await watched.db.ledgerAccount.findFirst({
      where: { wallet: owner.address, chain: 'base', bucket: 'in_flight' },
    });
    expect(inFlight?.balanceMicros).toBe(BigInt(plan.bridge?.burnAmountMicros ?? '-1'));
    expect((await verifyLedger(watched.db)).problems).toEqual([]);
  });
});
