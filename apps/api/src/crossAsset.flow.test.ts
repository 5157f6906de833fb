import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Address, Hex } from 'viem';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import {
  CrossAssetPlanDocument,
  PositionDocument,
  PublicPortfolioDocument,
  StoredPlanDocument,
} from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { startSwapBedApp } from './testing/startSwapBedApp';
import { itBlocksOnQuoteFaults } from './testing/swapTestTables';
import { evmOwnerClients } from './testing/evmOwnerClients';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';

// Cross-asset route and deposit on anvil: the owner routes WETH; the plan swaps it into USDC
// through the 0x-shaped fake over the bed's pair, then deposits the swap's minimum out into the
// bed's ERC-4626 venue, under one planId. The owner signs every leg; the keeper's settlement
// watch settles the swap leg and the deposit leg from their receipts.
const owner = anvilAccounts()[6];
if (!owner) throw new Error('no anvil account');
const ownerKey = `owner-all-${randomBytes(6).toString('hex')}`;
const WETH_IN = 10n ** 16n; // 0.01 WETH ≈ 30 USDC at the bed pair's 3,000 USDC/WETH

let swapApp: SwapBedApp;
let bed: EvmBed;
let fake: ZeroExFake;
let t: TestApp;

const keys = () =>
  JSON.stringify([
    { key: ownerKey, role: 'owner', wallets: ['*'] },
    { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
  ]);

beforeAll(async () => {
  swapApp = await startSwapBedApp((evm) => ({
    SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: evm.fixtures.vault } }),
    SVC_API_KEYS: keys(),
  }));
  ({ bed, fake, t } = swapApp);
  await bed.fixtures.mintWeth(owner.address, 10n ** 18n);
}, 60_000);
afterAll(() => swapApp.close());
afterEach(() => fake.setMode('ok'));

const route = (body: Record<string, unknown>, app = t) =>
  request(app.app)
    .post(`/api/v1/wallets/${owner.address}/route`)
    .set('X-API-Key', ownerKey)
    .send({ amountMicros: String(WETH_IN), token: 'WETH', chain: 'base', stake: true, ...body });
const depositPlan = (body: Record<string, unknown>) =>
  request(t.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({ strategyId: 'morpho', owner: owner.address, amountMicros: String(WETH_IN), ...body });

const owned = () => evmOwnerClients(bed, owner.privateKey);
const usdcOf = (who: Address) => owned().balanceOf(bed.fixtures.usdc, who);
const signAndSend = (document: CrossAssetPlanDocument) => owned().sendLegs(document.legs ?? []);

/** The owner reports each settling leg's transaction; the keeper's watch settles them. */
async function keeperSettles(document: CrossAssetPlanDocument, hashes: readonly Hex[]) {
  const planId = document.planId ?? '';
  for (const [legIndex, leg] of (document.legs ?? []).entries()) {
    const txId = hashes[legIndex];
    if (!leg.settles || !txId) continue;
    await markLegSubmitted(t.db, { planId, legIndex, txId, now: new Date() });
  }
  const counts = await swapApp.watchSettlements();
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );
  return { counts, stored };
}

const pendingIn = async () =>
  PositionDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${owner.address}/position`)
        .set('X-API-Key', ownerKey)
        .expect(200)
    ).body,
  );

describe('cross-asset route (WETH → USDC → venue) on anvil', () => {
  it('swap legs then deposit legs under one planId; the keeper settles both from their receipts', async () => {
    const res = await route({}).expect(200);
    const document = CrossAssetPlanDocument.parse(res.body);
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const minOut = BigInt(document.minAmountOutMicros ?? '0');
    expect(quoted).toBeGreaterThan(0n);
    // The minimum out at the default 100 bps, net of every fee (0x's amount out already is).
    expect(minOut).toBe((quoted * 9_900n) / 10_000n);
    expect(document).toMatchObject({
      kind: 'route',
      status: 'prepared',
      ownerMustSign: true,
      submitted: false,
      chain: 'base',
      venueId: 'morpho',
      amountMicros: String(WETH_IN),
      inputToken: 'WETH',
      outputToken: 'USDC',
      amountInMicros: String(WETH_IN),
      slippageBps: 100,
      quoteSource: '0x',
      // What is deposited, and reserved, is the swap's guaranteed minimum.
      depositMicros: String(minOut),
      pendingInMicros: String(minOut),
      feeLines: [
        { kind: 'service_swap_fee', bps: 10, amountMicros: String(WETH_IN / 1000n), token: 'WETH' },
        expect.objectContaining({ kind: 'pool_fee', token: 'WETH' }),
      ],
    });
    const feeLines = document.feeLines ?? [];
    expect(BigInt(document.feeMicros)).toBe(
      feeLines.reduce((sum, line) => sum + BigInt(line.amountMicros), 0n),
    );
    // Swap legs first (the allowance on the pair is 0: approve, swap), then the deposit legs.
    expect(document.legs?.map((leg) => [leg.index, leg.action, leg.settles])).toEqual([
      [0, 'approve', false],
      [1, 'swap', true],
      [2, 'approve', false],
      [3, 'deposit', true],
    ]);
    expect(document.legs?.[3]?.amountMicros).toBe(String(minOut));
    expect((await pendingIn()).pendingInMicros).toBe(String(minOut));

    const usdcBefore = await usdcOf(owner.address);
    const hashes = await signAndSend(document);
    // Issue 44: the swap and the deposit after it, simulated in one block at prepare, did on
    // chain exactly that; settlement found nothing diverging.
    await expectSimulatedAsMined(owned().reader, document, { ...hashes });
    const { counts, stored } = await keeperSettles(document, hashes);
    expect(counts).toMatchObject({ confirmed: 2 });
    expect(stored.divergences ?? []).toEqual([]);
    expect(stored.legs[1]).toMatchObject({
      action: 'swap',
      status: 'confirmed',
      txId: hashes[1],
      settledAmountMicros: String(quoted),
    });
    expect(stored.legs[3]).toMatchObject({
      action: 'deposit',
      status: 'confirmed',
      txId: hashes[3],
      settledAmountMicros: String(minOut),
    });
    // What the swap paid above its minimum stayed liquid in the owner's wallet, off the books.
    expect((await usdcOf(owner.address)) - usdcBefore).toBe(quoted - minOut);

    const position = await pendingIn();
    // The books match the wallet: staked holds the deposit, liquid (USDC) only what the swap
    // paid above its minimum (the deposit leg brought the minimum onto the books itself).
    expect(position).toMatchObject({
      pendingInMicros: '0',
      stakedMicros: String(minOut),
      liquidMicros: String(quoted - minOut),
    });
    // The cost basis is what was deposited: net of the swap's cost, so ROI is never overstated.
    const portfolio = PublicPortfolioDocument.parse(
      (await request(t.app).get('/api/v1/svc/portfolio').query({ wallet: owner.address })).body,
    );
    expect(portfolio.positions[0]).toMatchObject({
      venueId: 'morpho',
      depositedMicros: String(minOut),
      currentMicros: String(minOut),
    });

    const activity = await request(t.app)
      .get(`/api/v1/svc/activity?wallet=${owner.address}`)
      .expect(200);
    expect(
      activity.body.activity.filter((row: { planId: string }) => row.planId === document.planId),
    ).toEqual([
      expect.objectContaining({
        kind: 'swap',
        legIndex: 1,
        txId: hashes[1],
        amountIn: String(WETH_IN),
        amountOut: String(quoted),
        quotedAmountOut: String(quoted),
        status: 'confirmed',
      }),
      expect.objectContaining({
        kind: 'deposit',
        legIndex: 3,
        txId: hashes[3],
        amountIn: String(minOut),
        amountOut: String(minOut),
        quotedAmountOut: String(minOut),
        status: 'confirmed',
      }),
    ]);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('a cross-asset deposit plan: swap legs then the venue deposit, the minimum out deposited', async () => {
    const document = CrossAssetPlanDocument.parse(
      (await depositPlan({ token: 'weth', slippageBps: 50 }).expect(200)).body,
    );
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const minOut = (quoted * 9_950n) / 10_000n;
    expect(document).toMatchObject({
      kind: 'deposit',
      status: 'prepared',
      inputToken: 'WETH',
      slippageBps: 50,
      minAmountOutMicros: String(minOut),
      depositMicros: String(minOut),
    });
    // The earlier route's swap used up its exact approval: an approval leg again.
    expect(document.legs?.map((leg) => [leg.action, leg.settles, leg.amountMicros])).toEqual([
      ['approve', false, String(WETH_IN)],
      ['swap', true, String(WETH_IN)],
      ['approve', false, String(minOut)],
      ['deposit', true, String(minOut)],
    ]);
  });

  // Nothing reserved: no journal entry for the plan, so the wallet's pending_in is as it was.
  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_liquidity',
    setMode: (mode) => fake.setMode(mode),
    send: () => route({}),
    parse: (body) => CrossAssetPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
    blocked: { pendingInMicros: '0', inputToken: 'WETH' },
  });

  it.each([
    ['route', 'unknown token', () => route({ token: 'DOGE' }), 'body.token'],
    ['route', 'slippage 501', () => route({ slippageBps: 501 }), 'slippageBps'],
    ['deposit', 'unknown token', () => depositPlan({ token: 'DOGE' }), 'body.token'],
    ['deposit', 'fractional slippage', () => depositPlan({ slippageBps: 1.5 }), 'slippageBps'],
  ])('%s: %s → 400 naming the field, nothing stored', async (_kind, _name, send, field) => {
    const before = await t.db.plan.count();
    const res = await send().expect(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(`${res.body.field ?? ''} ${res.body.message}`).toContain(field);
    expect(await t.db.plan.count()).toBe(before);
  });

  it('token ETH: 400 NATIVE_TOKEN_NOT_SWAPPABLE naming body.token (routes do not wrap yet)', async () => {
    const before = await t.db.plan.count();
    const res = await route({ token: 'ETH' }).expect(400);
    expect(res.body).toMatchObject({ code: 'NATIVE_TOKEN_NOT_SWAPPABLE', field: 'body.token' });
    expect(res.body.message).toContain('WETH');
    expect(await t.db.plan.count()).toBe(before);
  });

  // Last: the prepared route reserves its minimum out in the owner's books.
  it("autoBridge with the funds on the route's chain is ignored: the swap is quoted, as without it", async () => {
    const res = await route({ sourceChain: 'base', autoBridge: true }).expect(200);
    const document = CrossAssetPlanDocument.parse(res.body);
    expect(document).toMatchObject({ status: 'prepared', inputToken: 'WETH' });
    expect(BigInt(document.depositMicros ?? '0')).toBeGreaterThan(0n);
    expect(document.pendingInMicros).toBe(document.depositMicros);
    expect(document.legs?.map((leg) => leg.action)).toEqual(
      expect.arrayContaining(['swap', 'deposit']),
    );
  });
});

describe('cross-asset route without a swap source', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({
      SVC_BASE_RPC_URL: bed.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: bed.fixtures.usdc,
      SVC_BASE_SWAP_TOKENS: `WETH:${bed.fixtures.weth}:18`,
      SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: bed.fixtures.vault } }),
      SVC_API_KEYS: keys(),
    });
  });
  afterAll(() => bare.close());

  it('is blocked quote_source_not_configured naming the setting; nothing reserved', async () => {
    const document = CrossAssetPlanDocument.parse((await route({}, bare).expect(200)).body);
    expect(document).toMatchObject({ status: 'blocked', pendingInMicros: '0' });
    expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
      ['quote_source_not_configured', 'SVC_ZEROX_BASE_URL'],
      ['quote_source_not_configured', 'SVC_BASE_SWAP_FEE_RECIPIENT'],
    ]);
    expect(await bare.db.journalEntry.count()).toBe(0);
  });
});
