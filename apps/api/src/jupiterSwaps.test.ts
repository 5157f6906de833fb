import request from 'supertest';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import type { JupiterFake } from '@yieldrouter/chain-beds/quotes';
import { RoutesDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import { freshSolanaKey } from './testing/solanaBedSettings';
import { startJupiterBedApp } from './testing/startJupiterBedApp';
import { settledPlan, signAndExecuteLeg } from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import { SAMPLE_ADDRESSES, startTestApp } from './testing/startTestApp';
import {
  itBlocksOnQuoteFaults,
  itFailsAStaleFill,
  itRefusesBadInput,
  protocolFees,
  swapBadInputCases,
} from './testing/swapTestTables';

// Solana swap plans end to end: the route prices with the Jupiter-shaped fake over a cp_pool on
// the local SVM, the owner signs the one leg (service fee + Jupiter's instructions + memo), the
// API broadcasts it, and the keeper's settlement watch settles it from its receipt (the amount
// out from the owner's token balance delta, the fee to fees:protocol).
const FEE_RECIPIENT = freshSolanaKey();
const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let app: SolanaRouterApp;
let pool: SolanaCpPool;
let fake: JupiterFake;

beforeAll(async () => {
  ({ app, pool, fake } = await startJupiterBedApp(FEE_RECIPIENT));
}, 60_000);
afterAll(() => app.close());
afterEach(() => fake.setMode('ok'));

const plan = (body: Record<string, unknown>) =>
  request(app.t.app).post('/api/v1/svc/jupiter/plan').send(body);
const swapBody = (owner: string, extra: Record<string, unknown> = {}) => ({
  chain: 'solana',
  owner,
  inputToken: 'USDC',
  outputToken: 'BED',
  amountInMicros: '100000000',
  ...extra,
});
const fundedOwner = (usdc: bigint) => {
  const owner = app.solana.createFundedKeypair();
  app.solana.mintUsdc(owner.publicKey, usdc);
  return owner;
};

describe('POST /svc/jupiter/plan', () => {
  it('prepares a priced plan; the owner signs; the keeper settles the swap from its receipt', async () => {
    const owner = fundedOwner(100_000_000n);
    const document = SwapPlanDocument.parse(
      (await plan(swapBody(owner.publicKey.toBase58())).expect(200)).body,
    );
    expect(document).toMatchObject({
      kind: 'swap',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      chain: 'solana',
      inputToken: 'USDC',
      outputToken: 'BED',
      amountInMicros: '100000000',
      slippageBps: 100,
      quoteSource: 'jupiter',
      // The service fee (10 bps of the input) and the pool fee the route reported (30 bps of
      // what was swapped, the input net of the service fee), both on the input side.
      feeMicros: String(100_000 + 299_700),
      feeLines: [
        {
          kind: 'service_swap_fee',
          bps: 10,
          amountMicros: '100000',
          token: 'USDC',
          payer: 'owner',
        },
        { kind: 'pool_fee', amountMicros: '299700', token: 'USDC', payer: 'owner' },
      ],
    });
    expect(document.priceImpactBps).toBeGreaterThan(0);
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    expect(BigInt(document.minAmountOutMicros ?? '')).toBe((quoted * 9_900n) / 10_000n);
    const ttl = Date.parse(document.expiresAt ?? '') - Date.parse(document.createdAt ?? '');
    expect(ttl >= 30_000 && ttl < 35_000).toBe(true);
    // One leg: a base64 v0 transaction the owner pays for, carrying the plan memo.
    expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([['swap', true]]);
    const unsigned = VersionedTransaction.deserialize(
      Buffer.from(String(document.legs?.[0]?.transaction), 'base64'),
    );
    expect(unsigned.message.staticAccountKeys[0]?.toBase58()).toBe(owner.publicKey.toBase58());
    const memo = unsigned.message.compiledInstructions.find((instruction) =>
      unsigned.message.staticAccountKeys[instruction.programIdIndex]?.equals(MEMO_PROGRAM_ID),
    );
    expect(Buffer.from(memo?.data ?? []).toString()).toBe(`svc:${document.planId}`);
    expect(fake.requests.at(-2)?.body).toMatchObject({ amount: '99900000', slippageBps: '100' });

    const feesBefore = await protocolFees(app.t);
    const { txId } = await signAndExecuteLeg(app.t, document, owner);
    const stored = await settledPlan(app.t, document.planId ?? '');
    // The amount out is what the chain paid the owner (here the quote, filled exactly).
    expect(stored.legs[0]).toMatchObject({
      action: 'swap',
      status: 'confirmed',
      txId,
      settledAmountMicros: String(quoted),
    });
    expect(app.solana.tokenBalance(pool.mintB, owner.publicKey)).toBe(quoted);
    expect(app.solana.usdcBalance(owner.publicKey)).toBe(0n);
    expect(app.solana.usdcBalance(FEE_RECIPIENT)).toBe(100_000n);
    expect((await protocolFees(app.t)) - feesBefore).toBe(100_000n);
  });

  let staleOwner: ReturnType<typeof fundedOwner>;
  itFailsAStaleFill({
    app: () => app.t,
    setStale: () => {
      staleOwner = fundedOwner(20_000_000n);
      fake.setMode('stale');
    },
    send: () => plan(swapBody(staleOwner.publicKey.toBase58(), { amountInMicros: '20000000' })),
    signAndSettle: async (document) => {
      await signAndExecuteLeg(app.t, document, staleOwner);
      return { leg: (await settledPlan(app.t, document.planId ?? '')).legs[0] };
    },
    failureReason: /below the minimum/,
  });

  itBlocksOnQuoteFaults({
    app: () => app.t,
    noRoute: 'no_route',
    setMode: (mode) => fake.setMode(mode),
    send: () => plan(swapBody(freshSolanaKey())),
    parse: (body) => SwapPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
    source: 'jupiter',
  });

  itRefusesBadInput({
    app: () => app.t,
    cases: swapBadInputCases(['sui', 'base'], SAMPLE_ADDRESSES.base),
    send: (change) => plan(swapBody(freshSolanaKey(), change)),
  });

  it('is listed as implemented in /svc/routes', async () => {
    const routes = RoutesDocument.parse((await request(app.t.app).get('/api/v1/svc/routes')).body);
    expect(
      routes.routes.find((route) => route.operationId === 'prepareSolanaSwapPlan'),
    ).toMatchObject({ implemented: true, path: '/api/v1/svc/jupiter/plan' });
  });

  it('without a quote source or fee recipient: blocked, naming the settings', async () => {
    const bare = await startTestApp({ SVC_SOLANA_RPC_URL: app.solana.rpcUrl });
    try {
      const res = await request(bare.app)
        .post('/api/v1/svc/jupiter/plan')
        .send(swapBody(freshSolanaKey(), { outputToken: 'WSOL' }))
        .expect(200);
      const document = SwapPlanDocument.parse(res.body);
      expect(document.status).toBe('blocked');
      expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_JUPITER_BASE_URL'],
        ['quote_source_not_configured', 'SVC_SOLANA_SWAP_FEE_RECIPIENT'],
      ]);
    } finally {
      await bare.close();
    }
  });
});
