import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import type { ChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { markLegSubmitted } from '@yieldrouter/ledger';
import { RoutesDocument, StoredPlanDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import type { CetusFake } from '@yieldrouter/chain-beds/quotes';
import type { SuiFake, SuiFakePool } from '@yieldrouter/chain-beds/sui';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import {
  itBlocksOnQuoteFaults,
  itFailsAStaleFill,
  itRefusesBadInput,
  protocolFees,
  swapBadInputCases,
} from './testing/swapTestTables';
import {
  SUI_SWAP_FEE_RECIPIENT,
  SUI_TEST_USDC,
  startSuiSwapBedApp,
} from './testing/startSuiSwapBedApp';

// Sui swap plans end to end: the route prices with the Cetus-shaped fake over the Sui fake's
// pool, the owner's wallet resolves and signs the leg, the Sui fake runs the pool's swap, and
// the keeper's settlement watch settles the leg from its balance changes.
const SUI = '0x2::sui::SUI';

let bed: SuiSwapBedApp;
let sui: SuiFake;
let pool: SuiFakePool;
let cetus: CetusFake;
let t: TestApp;
let adapters: ChainAdapters;
let client: SuiJsonRpcClient;
const wallet = new Ed25519Keypair();
const owner = wallet.toSuiAddress();

beforeAll(async () => {
  bed = await startSuiSwapBedApp();
  ({ sui, pool, cetus, t, adapters, client } = bed);
  sui.setBalance(owner, SUI, 5_000_000_000n);
  sui.setBalance(owner, SUI_TEST_USDC, 500_000_000n);
}, 60_000);
afterAll(() => bed.close());
afterEach(() => cetus.setMode('ok'));

const plan = (body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/svc/cetus/plan').send(body);
const swapBody = (extra: Record<string, unknown> = {}) => ({
  owner,
  inputToken: 'USDC',
  outputToken: 'SUI',
  amountInMicros: '100000000',
  ...extra,
});
const balanceOf = async (who: string, coinType: string) =>
  BigInt((await client.getBalance({ owner: who, coinType })).totalBalance);

/** The owner's wallet: resolves the leg against the chain (coins, objects), signs, executes. */
async function signAndSend(document: SwapPlanDocument): Promise<string> {
  const leg = document.legs?.[0];
  if (leg?.encoding !== 'sui-transaction-json') throw new Error('no Sui JSON leg');
  const tx = Transaction.from(leg.transaction as string);
  tx.setGasPrice(sui.referenceGasPrice);
  tx.setGasBudget(50_000_000n);
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  return (await client.executeTransactionBlock({ transactionBlock: bytes, signature })).digest;
}

/** The leg's txId recorded (as execute or the settle route do), then the keeper's watch. */
async function keeperSettles(document: SwapPlanDocument, txId: string) {
  await markLegSubmitted(t.db, {
    planId: document.planId ?? '',
    legIndex: 0,
    txId,
    now: new Date(),
  });
  const counts = await watchSettlements(
    testJobDeps(
      { url: '', db: t.db, drop: async () => undefined },
      { adapters, venues: t.config.venues },
    ),
  );
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200)).body,
  );
  return { counts, leg: stored.legs[0] };
}

describe('POST /svc/cetus/plan', () => {
  it('prepares a priced plan; the owner signs; the keeper settles the swap from its balance changes', async () => {
    // The service fee (10 bps) comes off the input first; the pool swaps the rest.
    const expected = pool.quote(true, 99_900_000n);
    const res = await plan(swapBody()).expect(200);
    const document = SwapPlanDocument.parse(res.body);
    expect(document).toMatchObject({
      kind: 'swap',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      chain: 'sui',
      inputToken: 'USDC',
      outputToken: 'SUI',
      amountInMicros: '100000000',
      slippageBps: 100,
      quoteSource: 'cetus',
      quotedAmountOutMicros: String(expected.amountOut),
      feeMicros: String(100_000n + expected.fee),
      feeLines: [
        {
          kind: 'service_swap_fee',
          bps: 10,
          amountMicros: '100000',
          token: 'USDC',
          payer: 'owner',
        },
        { kind: 'pool_fee', amountMicros: String(expected.fee), token: 'USDC', payer: 'owner' },
      ],
    });
    expect(document.priceImpactBps).toEqual(expect.any(Number));
    expect(BigInt(document.minAmountOutMicros ?? '')).toBe((expected.amountOut * 9_900n) / 10_000n);
    const ttl = Date.parse(document.expiresAt ?? '') - Date.parse(document.createdAt ?? '');
    expect(ttl >= 30_000 && ttl < 35_000).toBe(true);
    expect(document.legs?.map((leg) => [leg.action, leg.settles, leg.encoding])).toEqual([
      ['swap', true, 'sui-transaction-json'],
    ]);
    expect(cetus.requests.at(-1)).toMatchObject({
      amount: '99900000',
      by_amount_in: 'true',
      providers: 'CETUS',
    });

    const suiBefore = await balanceOf(owner, SUI);
    const feesBefore = await protocolFees(t);
    const txId = await signAndSend(document);
    const { counts, leg } = await keeperSettles(document, txId);
    expect(counts).toMatchObject({ checked: 1, confirmed: 1 });
    expect(leg).toMatchObject({
      action: 'swap',
      status: 'confirmed',
      txId,
      settledAmountMicros: String(expected.amountOut),
      reviewReason: null,
    });
    // What the chain shows: the output to the owner (less the gas the owner's SUI paid), the
    // fee to the recipient, and that fee (USDC, the books' unit) booked to fees:protocol.
    const gas = (await client.getTransactionBlock({ digest: txId, options: { showEffects: true } }))
      .effects?.gasUsed;
    const charged =
      BigInt(gas?.computationCost ?? 0) +
      BigInt(gas?.storageCost ?? 0) -
      BigInt(gas?.storageRebate ?? 0);
    expect((await balanceOf(owner, SUI)) - suiBefore).toBe(expected.amountOut - charged);
    expect(await balanceOf(SUI_SWAP_FEE_RECIPIENT, SUI_TEST_USDC)).toBe(100_000n);
    expect((await protocolFees(t)) - feesBefore).toBe(100_000n);
  });

  // The chain aborts the stale fill (check_coin_threshold): the owner's USDC and the pool stay.
  itFailsAStaleFill({
    app: () => t,
    setStale: () => cetus.setMode('stale'),
    send: () => plan(swapBody({ amountInMicros: '20000000' })),
    signAndSettle: async (document) => keeperSettles(document, await signAndSend(document)),
    failureReason: /check_coin_threshold/,
    nothingElseMoves: async () => {
      const usdcBefore = await balanceOf(owner, SUI_TEST_USDC);
      const reserves = pool.reserves();
      return async () => {
        expect(await balanceOf(owner, SUI_TEST_USDC)).toBe(usdcBefore);
        expect(pool.reserves()).toEqual(reserves);
      };
    },
  });

  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_route',
    setMode: (mode) => cetus.setMode(mode),
    send: () => plan(swapBody()),
    parse: (body) => SwapPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
    source: 'cetus',
  });

  itRefusesBadInput({
    app: () => t,
    cases: swapBadInputCases(['solana'], SAMPLE_ADDRESSES.solana),
    send: (change) => plan(swapBody(change)),
  });

  it('is listed as implemented in /svc/routes', async () => {
    const routes = RoutesDocument.parse((await request(t.app).get('/api/v1/svc/routes')).body);
    expect(routes.routes.find((route) => route.operationId === 'prepareSuiSwapPlan')).toMatchObject(
      { implemented: true, path: '/api/v1/svc/cetus/plan' },
    );
  });
});
