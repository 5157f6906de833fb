import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { verifyLedger } from '@yieldrouter/ledger';
import { CrossAssetPlanDocument } from '@yieldrouter/schemas';
import type { StoredPlanDocument } from '@yieldrouter/schemas';
import type { CetusFake } from '@yieldrouter/chain-beds/quotes';
import type { SuiFake, SuiFakePool, SuiFakeSuilend } from '@yieldrouter/chain-beds/sui';
import { walletPosition } from './testing/solanaRouterApp';
import { expectEachLegAsSimulated, expectLaterLegsDeferred } from './testing/legsAfterSimulation';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { itBlocksOnQuoteFaults } from './testing/swapTestTables';
import { OWNER_AND_KEEPER_KEYS, settleSuiLeg } from './testing/suiBedLegs';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import { SUI_TEST_USDC, startSuiSwapBedApp } from './testing/startSuiSwapBedApp';

// Cross-asset route and deposit on the Sui fake: the owner routes SUI; the plan swaps it into
// USDC through the Cetus-shaped pool the fake runs (one programmable transaction), then either
// proves the swap's minimum out in the owner's wallet as liquid (a route: the owner sends it to
// themselves, no Move call) or deposits it into Suilend's lending market
// (`lending_market::deposit_liquidity_and_mint_ctokens`, for a suilend deposit plan), under one
// planId. The owner's wallet resolves and signs each leg,
// and the keeper's settlement watch settles both from their effects and events.
const SUI = '0x2::sui::SUI';
const SUI_IN = 2_000_000_000n; // 2 SUI ≈ 8 USDC at the pool's 4 USDC per SUI

let bed: SuiSwapBedApp;
let sui: SuiFake;
let pool: SuiFakePool;
let cetus: CetusFake;
let suilend: SuiFakeSuilend;
let t: TestApp;
let client: SuiJsonRpcClient;

const bedSettings = (fake: SuiFake) => {
  suilend = fake.addSuilend({ usdc: SUI_TEST_USDC, availableAmount: 1_000_000_000_000n });
  return {
    SVC_VENUE_IDS: JSON.stringify({ suilend: suilend.ids }),
    SVC_API_KEYS: OWNER_AND_KEEPER_KEYS,
  };
};

beforeAll(async () => {
  bed = await startSuiSwapBedApp(bedSettings);
  ({ sui, pool, cetus, t, client } = bed);
}, 60_000);
afterAll(() => bed.close());
afterEach(() => cetus.setMode('ok'));

/** A fresh owner holding 5 SUI (the swap's input and its gas). */
const newOwner = () => {
  const wallet = new Ed25519Keypair();
  sui.setBalance(wallet.toSuiAddress(), SUI, 5_000_000_000n);
  return wallet;
};
const route = (owner: string, body: Record<string, unknown> = {}, app = t) =>
  request(app.app)
    .post(`/api/v1/wallets/${owner}/route`)
    .set('X-API-Key', testKeys.owner)
    .send({ amountMicros: String(SUI_IN), token: 'SUI', chain: 'sui', ...body });
const depositPlan = (owner: string, body: Record<string, unknown> = {}) =>
  request(t.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({ strategyId: 'suilend', owner, amountMicros: String(SUI_IN), token: 'SUI', ...body });
const balanceOf = async (who: string, coinType: string) =>
  BigInt((await client.getBalance({ owner: who, coinType })).totalBalance);
const position = (wallet: string) => walletPosition(t, wallet);

/** The owner's wallet resolves leg `legIndex` against the chain, signs and executes it. */
async function sendLeg(
  document: CrossAssetPlanDocument,
  wallet: Ed25519Keypair,
  legIndex: number,
): Promise<string> {
  const leg = document.legs?.[legIndex];
  if (leg?.encoding !== 'sui-transaction-json') throw new Error('no Sui JSON leg');
  const tx = Transaction.from(leg.transaction as string);
  tx.setGasPrice(sui.referenceGasPrice);
  tx.setGasBudget(50_000_000n);
  // The wallet pays gas from its SUI coin (the swap's SUI input is split off the same coin).
  const { data: gas } = await client.getCoins({ owner: wallet.toSuiAddress(), coinType: SUI });
  tx.setGasPayment(
    gas.map(({ coinObjectId, version, digest }) => ({ objectId: coinObjectId, version, digest })),
  );
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  return (await client.executeTransactionBlock({ transactionBlock: bytes, signature })).digest;
}

/** Each leg sent by the owner's wallet; the keeper's watch settles it before the next is signed. */
async function signAndSettleAll(
  document: CrossAssetPlanDocument,
  wallet: Ed25519Keypair,
): Promise<StoredPlanDocument> {
  const planId = document.planId ?? '';
  let stored: StoredPlanDocument | undefined;
  for (const [legIndex] of (document.legs ?? []).entries()) {
    stored = await settleSuiLeg(bed, planId, await sendLeg(document, wallet, legIndex), legIndex);
  }
  if (!stored) throw new Error('a plan with no legs');
  return stored;
}

describe('cross-asset route (SUI → USDC → liquid in the wallet) on the Sui fake', () => {
  it('swap leg then deposit leg under one planId; both settle from their effects', async () => {
    const wallet = newOwner();
    const owner = wallet.toSuiAddress();
    // The service fee (10 bps) comes off the input first; the pool swaps the rest into USDC.
    const expected = pool.quote(false, SUI_IN - SUI_IN / 1000n);
    const document = CrossAssetPlanDocument.parse((await route(owner).expect(200)).body);
    const minOut = (expected.amountOut * 9_900n) / 10_000n;
    expect(document).toMatchObject({
      kind: 'route',
      status: 'prepared',
      ownerMustSign: true,
      chain: 'sui',
      amountMicros: String(SUI_IN),
      inputToken: 'SUI',
      outputToken: 'USDC',
      quoteSource: 'cetus',
      quotedAmountOutMicros: String(expected.amountOut),
      minAmountOutMicros: String(minOut),
      depositMicros: String(minOut),
      pendingInMicros: String(minOut),
      feeLines: [
        { kind: 'service_swap_fee', bps: 10, amountMicros: String(SUI_IN / 1000n), token: 'SUI' },
        { kind: 'pool_fee', amountMicros: String(expected.fee), token: 'SUI', payer: 'owner' },
      ],
    });
    expect(document.legs?.map((leg) => [leg.index, leg.action, leg.settles, leg.encoding])).toEqual(
      [
        [0, 'swap', true, 'sui-transaction-json'],
        [1, 'deposit', true, 'sui-transaction-json'],
      ],
    );
    expect(document.legs?.[1]?.amountMicros).toBe(String(minOut));

    const stored = await signAndSettleAll(document, wallet);
    expect(stored.legs.map((leg) => [leg.action, leg.status, leg.settledAmountMicros])).toEqual([
      ['swap', 'confirmed', String(expected.amountOut)],
      ['deposit', 'confirmed', String(minOut)],
    ]);
    // The chain: everything the swap got stays in the owner's wallet (liquid on Sui is theirs).
    expect(await balanceOf(owner, SUI_TEST_USDC)).toBe(expected.amountOut);
    // The books: liquid holds the proven minimum and what the swap got above it.
    expect(await position(owner)).toMatchObject({
      pendingInMicros: '0',
      liquidMicros: String(expected.amountOut),
    });
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('the deposit leg is dry-run once the swap settled, on what it left; each lands as dry-run', async () => {
    const wallet = newOwner();
    const owner = wallet.toSuiAddress();
    const document = CrossAssetPlanDocument.parse((await route(owner).expect(200)).body);
    expectLaterLegsDeferred(document.simulation, 'dryRunTransactionBlock', 2);
    const planId = document.planId ?? '';
    const settled = await expectEachLegAsSimulated(
      'sui',
      t,
      planId,
      2,
      async (index) => {
        const digest = await sendLeg(document, wallet, index);
        await settleSuiLeg(bed, planId, digest, index);
        return digest;
      },
      (digest) => bed.adapters.sui.readLegChanges!(digest),
    );
    expect(settled.legs.map((leg) => leg.reviewReason)).toEqual(settled.legs.map(() => null));
  });

  it('a cross-asset deposit plan into suilend: the minimum out staked, the cost basis', async () => {
    const wallet = newOwner();
    const owner = wallet.toSuiAddress();
    const document = CrossAssetPlanDocument.parse(
      (await depositPlan(owner, { token: 'sui', slippageBps: 50 }).expect(200)).body,
    );
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const minOut = (quoted * 9_950n) / 10_000n;
    expect(document).toMatchObject({
      kind: 'deposit',
      status: 'prepared',
      chain: 'sui',
      venueId: 'suilend',
      inputToken: 'SUI',
      depositMicros: String(minOut),
    });
    expect(document.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
      ['swap', String(SUI_IN)],
      ['deposit', String(minOut)],
    ]);
    const stored = await signAndSettleAll(document, wallet);
    expect(stored.legs.map((leg) => leg.status)).toEqual(['confirmed', 'confirmed']);
    // Suilend's ctoken ratio is 1 before any interest: one CToken per unit deposited.
    expect(await balanceOf(owner, suilend.ids.receiptCoinType)).toBe(minOut);
    const after = await position(owner);
    expect(after).toMatchObject({ pendingInMicros: '0', liquidMicros: String(quoted - minOut) });
    expect(after.byChain.sui.venues).toEqual([
      expect.objectContaining({ venueId: 'suilend', stakedMicros: String(minOut) }),
    ]);
    const portfolio = await request(t.app)
      .get('/api/v1/svc/portfolio')
      .query({ wallet: owner })
      .expect(200);
    expect(portfolio.body.positions).toEqual([
      expect.objectContaining({ venueId: 'suilend', depositedMicros: String(minOut) }),
    ]);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_route',
    setMode: (mode) => cetus.setMode(mode),
    send: () => route(newOwner().toSuiAddress()),
    parse: (body) => CrossAssetPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
    source: 'cetus',
    blocked: { pendingInMicros: '0', inputToken: 'SUI' },
  });

  it.each([
    ['route', () => route(new Ed25519Keypair().toSuiAddress(), { token: 'DOGE' })],
    ['deposit', () => depositPlan(new Ed25519Keypair().toSuiAddress(), { token: 'DOGE' })],
  ])('%s: unknown token → 400 naming body.token, nothing stored', async (_kind, send) => {
    const before = await t.db.plan.count();
    const res = await send().expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.token' });
    expect(await t.db.plan.count()).toBe(before);
  });

  it('without a Cetus source: blocked naming the setting, nothing reserved', async () => {
    const bare = await startTestApp({
      SVC_SUI_RPC_URL: sui.rpcUrl,
      SVC_SUI_NETWORK: 'localnet',
      SVC_SUI_USDC_COIN_TYPE: SUI_TEST_USDC,
      SVC_SUI_SWAP_FEE_RECIPIENT: `0x${'9a'.repeat(32)}`,
      SVC_API_KEYS: JSON.stringify([{ key: testKeys.owner, role: 'owner', wallets: ['*'] }]),
    });
    try {
      const document = CrossAssetPlanDocument.parse(
        (await route(newOwner().toSuiAddress(), {}, bare).expect(200)).body,
      );
      expect(document).toMatchObject({ status: 'blocked', pendingInMicros: '0' });
      expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_CETUS_BASE_URL'],
      ]);
      expect(await bare.db.journalEntry.count()).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
