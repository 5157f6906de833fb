import request from 'supertest';
import { verifyLedger } from '@yieldrouter/ledger';
import type { SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import type { JupiterFake } from '@yieldrouter/chain-beds/quotes';
import { CrossAssetPlanDocument } from '@yieldrouter/schemas';
import type { Keypair } from '@solana/web3.js';
import { freshSolanaKey } from './testing/solanaBedSettings';
import { startJupiterBedApp } from './testing/startJupiterBedApp';
import {
  settledPlan,
  signAndExecuteLeg,
  stakedInVenue,
  walletPosition,
} from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import {
  chainAdapters,
  expectEachLegAsSimulated,
  expectLaterLegsDeferred,
} from './testing/legsAfterSimulation';
import { startTestApp, testKeys } from './testing/startTestApp';
import { itBlocksOnQuoteFaults } from './testing/swapTestTables';

// Cross-asset route and deposit on the Solana bed: the owner routes BED (a token of the
// Jupiter-shaped fake's cp_pool); the plan swaps it into USDC through the pool (one v0
// transaction: fee transfer, Jupiter's instructions, memo), then deposits the swap's minimum
// out through our router program, under one planId. The owner signs each leg, the API
// broadcasts it, and the keeper's settlement watch settles both from their receipts.
const FEE_RECIPIENT = freshSolanaKey();
const BED_IN = 50_000_000n; // 0.05 BED ≈ 10 USDC at the pool's 5 BED-units per USDC micro

let app: SolanaRouterApp;
let pool: SolanaCpPool;
let fake: JupiterFake;

beforeAll(async () => {
  ({ app, pool, fake } = await startJupiterBedApp(FEE_RECIPIENT));
}, 60_000);
afterAll(() => app.close());
afterEach(() => fake.setMode('ok'));

const ownerWithBed = (): Keypair => {
  const owner = app.solana.createFundedKeypair();
  app.solana.mintTokens(pool.mintB, owner.publicKey, BED_IN);
  return owner;
};
const route = (wallet: string, body: Record<string, unknown> = {}, t = app.t) =>
  request(t.app)
    .post(`/api/v1/wallets/${wallet}/route`)
    .set('X-API-Key', testKeys.owner)
    .send({ amountMicros: String(BED_IN), token: 'BED', chain: 'solana', ...body });
const depositPlan = (owner: string, body: Record<string, unknown> = {}) =>
  request(app.t.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({ strategyId: 'kamino', owner, amountMicros: String(BED_IN), token: 'BED', ...body });

/** The owner signs and the API broadcasts each leg in turn; the keeper settles each. */
async function signAndSettleAll(document: CrossAssetPlanDocument, owner: Keypair) {
  const txIds: string[] = [];
  for (const [legIndex] of (document.legs ?? []).entries()) {
    txIds.push((await signAndExecuteLeg(app.t, document, owner, legIndex)).txId);
    await settledPlan(app.t, document.planId ?? '', legIndex);
  }
  return { txIds, stored: await settledPlan(app.t, document.planId ?? '') };
}

/** The swap's quote and minimum out, checked against the default 100 bps. */
function swapAmounts(document: CrossAssetPlanDocument) {
  const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
  const minOut = BigInt(document.minAmountOutMicros ?? '0');
  expect(quoted).toBeGreaterThan(0n);
  expect(minOut).toBe((quoted * 9_900n) / 10_000n);
  return { quoted, minOut };
}

describe('cross-asset route (BED → USDC → router) on the Solana bed', () => {
  it('swap leg then deposit leg under one planId; both settle from their receipts', async () => {
    const owner = ownerWithBed();
    const wallet = owner.publicKey.toBase58();
    const document = CrossAssetPlanDocument.parse((await route(wallet).expect(200)).body);
    const { quoted, minOut } = swapAmounts(document);
    expect(document).toMatchObject({
      kind: 'route',
      status: 'prepared',
      ownerMustSign: true,
      chain: 'solana',
      amountMicros: String(BED_IN),
      inputToken: 'BED',
      outputToken: 'USDC',
      quoteSource: 'jupiter',
      depositMicros: String(minOut),
      pendingInMicros: String(minOut),
      feeLines: [
        { kind: 'service_swap_fee', bps: 10, amountMicros: String(BED_IN / 1000n), token: 'BED' },
        expect.objectContaining({ kind: 'pool_fee', token: 'BED' }),
      ],
    });
    // One v0 swap transaction, then the router program's deposit of the minimum out.
    expect(document.legs?.map((leg) => [leg.index, leg.action, leg.settles])).toEqual([
      [0, 'swap', true],
      [1, 'deposit', true],
    ]);
    expect(document.legs?.[1]?.amountMicros).toBe(String(minOut));
    expect(await walletPosition(app.t, wallet)).toMatchObject({ pendingInMicros: String(minOut) });

    const { txIds, stored } = await signAndSettleAll(document, owner);
    expect(stored.legs.map((leg) => [leg.action, leg.status, leg.settledAmountMicros])).toEqual([
      ['swap', 'confirmed', String(quoted)],
      ['deposit', 'confirmed', String(minOut)],
    ]);
    expect(stored.legs.map((leg) => leg.txId)).toEqual(txIds);
    // The chain: the BED is gone, the fee paid in BED, the fill above the minimum in the wallet.
    expect(app.solana.tokenBalance(pool.mintB, owner.publicKey)).toBe(0n);
    expect(app.solana.tokenBalance(pool.mintB, FEE_RECIPIENT)).toBeGreaterThanOrEqual(
      BED_IN / 1000n,
    );
    expect(app.solana.usdcBalance(owner.publicKey)).toBe(quoted - minOut);
    // The books: the deposit credited liquid (router) with the minimum, the swap what it got
    // above the minimum; nothing pending.
    expect(await walletPosition(app.t, wallet)).toMatchObject({
      pendingInMicros: '0',
      liquidMicros: String(quoted),
    });
    expect((await verifyLedger(app.t.db)).problems).toEqual([]);
  });

  it('the deposit leg is simulated once the swap settled, on what it left; each lands as simulated', async () => {
    const owner = ownerWithBed();
    const wallet = owner.publicKey.toBase58();
    const document = CrossAssetPlanDocument.parse((await route(wallet).expect(200)).body);
    const { minOut } = swapAmounts(document);
    // The swap runs on the current state; the deposit spends its output: it waits for it.
    expectLaterLegsDeferred(document.simulation, 'simulateTransaction', 2);
    const planId = document.planId ?? '';
    const settled = await expectEachLegAsSimulated(
      'solana',
      app.t,
      planId,
      2,
      async (index) => {
        const { txId } = await signAndExecuteLeg(app.t, document, owner, index);
        await settledPlan(app.t, planId, index);
        return txId;
      },
      (txId) => chainAdapters(app.t).solana.readLegChanges!(txId),
    );
    expect(settled.legs.map((leg) => leg.reviewReason)).toEqual(settled.legs.map(() => null));
    const stored = await settledPlan(app.t, planId);
    const deposit =
      stored.simulation?.status === 'simulated' ? stored.simulation.legs[1] : undefined;
    expect(deposit?.changes.filter((change) => change.usdc && change.role === 'owner')).toEqual([
      expect.objectContaining({ delta: String(-minOut) }),
    ]);
  });

  it('a cross-asset deposit plan into the venue: the minimum out staked, the cost basis', async () => {
    const owner = ownerWithBed();
    const wallet = owner.publicKey.toBase58();
    const document = CrossAssetPlanDocument.parse(
      (await depositPlan(wallet, { token: 'bed', slippageBps: 50 }).expect(200)).body,
    );
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const minOut = (quoted * 9_950n) / 10_000n;
    expect(document).toMatchObject({
      kind: 'deposit',
      status: 'prepared',
      chain: 'solana',
      venueId: 'kamino',
      inputToken: 'BED',
      slippageBps: 50,
      minAmountOutMicros: String(minOut),
      depositMicros: String(minOut),
    });
    expect(document.legs?.map((leg) => [leg.action, leg.settles, leg.amountMicros])).toEqual([
      ['swap', true, String(BED_IN)],
      ['deposit', true, String(minOut)],
    ]);
    const { stored } = await signAndSettleAll(document, owner);
    expect(stored.legs.map((leg) => leg.status)).toEqual(['confirmed', 'confirmed']);
    expect(await stakedInVenue(app.t, wallet, 'kamino')).toBe(String(minOut));
    expect(await walletPosition(app.t, wallet)).toMatchObject({
      pendingInMicros: '0',
      liquidMicros: String(quoted - minOut),
    });
    // The cost basis is what was deposited: net of the swap's cost, so ROI is never overstated.
    const portfolio = await request(app.t.app)
      .get('/api/v1/svc/portfolio')
      .query({ wallet })
      .expect(200);
    expect(portfolio.body.positions).toEqual([
      expect.objectContaining({ venueId: 'kamino', depositedMicros: String(minOut) }),
    ]);
    expect((await verifyLedger(app.t.db)).problems).toEqual([]);
  });

  itBlocksOnQuoteFaults({
    app: () => app.t,
    noRoute: 'no_route',
    setMode: (mode) => fake.setMode(mode),
    send: () => route(ownerWithBed().publicKey.toBase58()),
    parse: (body) => CrossAssetPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
    source: 'jupiter',
    blocked: { pendingInMicros: '0', inputToken: 'BED' },
  });

  it.each([
    ['route', () => route(freshSolanaKey(), { token: 'DOGE' })],
    ['deposit', () => depositPlan(freshSolanaKey(), { token: 'DOGE' })],
  ])('%s: unknown token → 400 naming body.token, nothing stored', async (_kind, send) => {
    const before = await app.t.db.plan.count();
    const res = await send().expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.token' });
    expect(await app.t.db.plan.count()).toBe(before);
  });

  it('without a Jupiter source: blocked naming the setting, nothing reserved', async () => {
    const bare = await startTestApp({
      SVC_SOLANA_RPC_URL: app.solana.rpcUrl,
      SVC_SOLANA_USDC_MINT: app.solana.usdcMint,
      SVC_SOLANA_SWAP_FEE_RECIPIENT: FEE_RECIPIENT,
      SVC_SOLANA_SWAP_TOKENS: `BED:${pool.mintB}:9`,
      SVC_API_KEYS: JSON.stringify([{ key: testKeys.owner, role: 'owner', wallets: ['*'] }]),
    });
    try {
      const document = CrossAssetPlanDocument.parse(
        (await route(freshSolanaKey(), {}, bare).expect(200)).body,
      );
      expect(document).toMatchObject({ status: 'blocked', pendingInMicros: '0' });
      expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_JUPITER_BASE_URL'],
      ]);
      expect(await bare.db.journalEntry.count()).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
