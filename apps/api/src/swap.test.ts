import request from 'supertest';
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainAdapters } from '@yieldrouter/engine';
import type { ChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import { RoutesDocument, StoredPlanDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts, anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp, testKeys } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { SWAP_FEE_RECIPIENT, startSwapBedApp } from './testing/startSwapBedApp';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';
import {
  itBlocksOnQuoteFaults,
  itFailsAStaleFill,
  itRefusesBadInput,
  protocolFees,
  swapBadInputCases,
} from './testing/swapTestTables';

// EVM swap plans end to end: the route prices with the 0x-shaped fake over the bed's pair, the
// owner signs the legs with an anvil key, and the keeper's settlement watch settles the swap leg
// from its receipt (the amount out from the Transfer logs, the fee to fees:protocol).
const FEE_RECIPIENT = SWAP_FEE_RECIPIENT;
const owner = anvilAccounts()[4];
if (!owner) throw new Error('no anvil account');

let bed: EvmBed;
let fake: ZeroExFake;
let t: TestApp;
let adapters: ChainAdapters;

let swapApp: SwapBedApp;

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, fake, t } = swapApp);
  await bed.fixtures.mintUsdc(owner.address, 500_000_000n);
  adapters = createChainAdapters({
    chains: t.config.chains,
    ids: t.config.onChainIds,
    switches: t.config.switches,
  });
}, 60_000);
afterAll(() => swapApp.close());
afterEach(() => fake.setMode('ok'));

const plan = (body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/svc/evm/swap/plan').send(body);
const swapBody = (extra: Record<string, unknown> = {}) => ({
  chain: 'base',
  owner: owner.address,
  inputToken: 'USDC',
  outputToken: 'WETH',
  amountInMicros: '100000000',
  ...extra,
});

const chain = () => anvilChain(8453, bed.anvil.rpcUrl);
const reader = () => createPublicClient({ chain: chain(), transport: http(bed.anvil.rpcUrl) });
const wallet = () =>
  createWalletClient({
    chain: chain(),
    transport: http(bed.anvil.rpcUrl),
    account: privateKeyToAccount(owner.privateKey),
  });
const balanceOf = (token: Address, who: Address) =>
  reader().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const wethOf = (who: Address) => balanceOf(bed.fixtures.weth, who);

const storedPlan = async (planId: string | undefined) =>
  StoredPlanDocument.parse((await request(t.app).get(`/api/v1/svc/plans/${planId}`)).body);

/** The owner signs and sends each leg in order (anvil mines at once): hashes and gas paid. */
async function sendLegs(document: SwapPlanDocument) {
  const hashes: Hex[] = [];
  let gasPaid = 0n;
  for (const leg of document.legs ?? []) {
    const tx = leg.transaction as { to: Address; data: Hex; value: string };
    const hash = await wallet().sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
    });
    const receipt = await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    gasPaid += receipt.gasUsed * receipt.effectiveGasPrice;
    hashes.push(hash);
  }
  return { hashes, gasPaid };
}

/** The last leg's hash once every leg is sent. */
async function signAndSend(document: SwapPlanDocument): Promise<Hex> {
  const last = (await sendLegs(document)).hashes.at(-1);
  if (!last) throw new Error('no legs');
  return last;
}

/**
 * The owner reports the swap leg's transaction (as execute or the settle route record it), and
 * the keeper's settlement watch settles it from its receipt. `more`: earlier legs' transactions
 * too (by index); a leg booked after another settles on the watch's next pass.
 */
async function keeperSettles(
  document: SwapPlanDocument,
  txId: string,
  more: Readonly<Record<number, string>> = {},
) {
  const legIndex = (document.legs?.length ?? 0) - 1;
  for (const [index, hash] of [...Object.entries(more), [String(legIndex), txId]] as const) {
    await markLegSubmitted(t.db, {
      planId: document.planId ?? '',
      legIndex: Number(index),
      txId: hash,
      now: new Date(),
    });
  }
  const deps = testJobDeps(
    { url: '', db: t.db, drop: async () => undefined },
    { adapters, venues: t.config.venues },
  );
  const counts = await watchSettlements(deps);
  if (Object.keys(more).length > 0) await watchSettlements(deps);
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200)).body,
  );
  return { counts, leg: stored.legs[legIndex] };
}

describe('POST /svc/evm/swap/plan', () => {
  it('prepares a priced, stored plan; the owner signs; the keeper settles the swap from its receipt', async () => {
    const res = await plan(swapBody()).expect(200);
    const document = SwapPlanDocument.parse(res.body);
    expect(document).toMatchObject({
      kind: 'swap',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      chain: 'base',
      owner: owner.address,
      inputToken: 'USDC',
      outputToken: 'WETH',
      amountInMicros: '100000000',
      slippageBps: 100,
      quoteSource: '0x',
      priceImpactBps: null,
      // The service fee (10 bps of the input) and the pool fee the source reported (30 bps of
      // what was swapped), both on the input side.
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
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    expect(BigInt(document.minAmountOutMicros ?? '')).toBe((quoted * 9_900n) / 10_000n);
    // Honoured for SVC_SWAP_QUOTE_TTL_SECONDS (30 s) from when the quote arrived.
    const ttl = Date.parse(document.expiresAt ?? '') - Date.parse(document.createdAt ?? '');
    expect(ttl >= 30_000 && ttl < 35_000).toBe(true);
    // The allowance read on chain is 0: an approval leg, then the swap leg that settles.
    expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
      ['approve', false],
      ['swap', true],
    ]);
    expect(fake.requests.at(-1)).toMatchObject({
      swapFeeBps: '10',
      swapFeeRecipient: FEE_RECIPIENT,
      slippageBps: '100',
    });

    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200)).body,
    );
    expect(stored).toMatchObject({
      kind: 'swap',
      quotedAmountOutMicros: document.quotedAmountOutMicros,
      minAmountOutMicros: document.minAmountOutMicros,
      feeLines: document.feeLines,
    });

    const before = await wethOf(owner.address);
    const feesBefore = await protocolFees(t);
    const [approveTx, txId] = (await sendLegs(document)).hashes as [Hex, Hex];
    // Issue 44: the approval and the swap did on chain exactly what their simulation said.
    await expectSimulatedAsMined(reader(), document, { 0: approveTx, 1: txId });
    const { counts, leg } = await keeperSettles(document, txId);
    expect(counts).toMatchObject({ checked: 1, confirmed: 1 });
    // The amount out is what the logs paid the owner (here the quote, filled exactly).
    expect(leg).toMatchObject({
      action: 'swap',
      status: 'confirmed',
      txId,
      settledAmountMicros: String(quoted),
      reviewReason: null,
    });
    expect((await wethOf(owner.address)) - before).toBe(quoted);
    // The service fee the receipt proved paid, in the books' unit: chain → fees:protocol.
    expect((await protocolFees(t)) - feesBefore).toBe(100_000n);
    const activity = await request(t.app)
      .get(`/api/v1/svc/activity?wallet=${owner.address}`)
      .expect(200);
    expect(
      activity.body.activity.filter((row: { planId: string }) => row.planId === document.planId),
    ).toEqual([
      expect.objectContaining({
        kind: 'swap',
        txId,
        amountIn: '100000000',
        amountOut: String(quoted),
        quotedAmountOut: String(quoted),
        status: 'confirmed',
      }),
    ]);
  });

  it('ETH out (issue 41): the swap into WETH, then an unwrap settled from its receipt', async () => {
    const document = SwapPlanDocument.parse((await plan(swapBody({ outputToken: 'ETH' }))).body);
    expect(document).toMatchObject({ status: 'prepared', outputToken: 'WETH' });
    const settling = document.legs?.filter((leg) => leg.settles).map((leg) => leg.action);
    expect([document.legs?.[0]?.action, settling]).toEqual(['approve', ['swap', 'unwrap']]);
    const min = BigInt(document.minAmountOutMicros ?? '0');
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const ethOf = () => reader().getBalance({ address: owner.address });
    const [ethBefore, wethBefore] = [await ethOf(), await wethOf(owner.address)];
    const { hashes, gasPaid } = await sendLegs(document);
    // The unwrap's wei less the gas; what the swap paid above its minimum stays WETH.
    expect((await ethOf()) - ethBefore + gasPaid).toBe(min);
    expect((await wethOf(owner.address)) - wethBefore).toBe(quoted - min);
    const { leg } = await keeperSettles(document, hashes[2] ?? '', { 1: hashes[1] ?? '' });
    expect(leg).toMatchObject({
      action: 'unwrap',
      status: 'confirmed',
      settledAmountMicros: `${min}`,
    });
    const stored = await storedPlan(document.planId);
    expect(stored.legs[1]).toMatchObject({ status: 'confirmed', settledAmountMicros: `${quoted}` });
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('ETH in (issue 41): a wrap leg, then the swap from WETH, each settled from its receipt', async () => {
    const wei = 10n ** 16n;
    const res = await plan(
      swapBody({ inputToken: 'ETH', outputToken: 'USDC', amountInMicros: `${wei}` }),
    ).expect(200);
    const document = SwapPlanDocument.parse(res.body);
    expect(document).toMatchObject({ status: 'prepared', inputToken: 'WETH', outputToken: 'USDC' });
    const actions = document.legs?.map((leg) => leg.action);
    expect(actions?.[0]).toBe('wrap');
    expect(actions?.at(-1)).toBe('swap');
    expect(document.legs?.[0]?.transaction).toMatchObject({ value: `${wei}` });
    const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
    const usdcOf = () => balanceOf(bed.fixtures.usdc, owner.address);
    const ethOf = () => reader().getBalance({ address: owner.address });
    const [ethBefore, wethBefore, usdcBefore] = [
      await ethOf(),
      await wethOf(owner.address),
      await usdcOf(),
    ];
    const { hashes, gasPaid } = await sendLegs(document);
    // The wrap's wei left as ETH, the swap spent all of it as WETH, the quote came in as USDC.
    expect(ethBefore - (await ethOf()) - gasPaid).toBe(wei);
    expect(await wethOf(owner.address)).toBe(wethBefore);
    expect((await usdcOf()) - usdcBefore).toBe(quoted);
    // Issue 44: each leg did on chain what its simulation said (the wrap mints the owner WETH).
    await expectSimulatedAsMined(
      reader(),
      document,
      Object.fromEntries(hashes.map((hash, index) => [index, hash])),
    );
    // The swap spends what the wrap wrapped: reported alone, it waits for the wrap leg.
    const early = await keeperSettles(document, hashes.at(-1) ?? '');
    expect(early.leg).toMatchObject({ action: 'swap', status: 'submitted' });
    const { leg } = await keeperSettles(document, hashes.at(-1) ?? '', { 0: hashes[0] ?? '' });
    expect(leg).toMatchObject({
      action: 'swap',
      status: 'confirmed',
      settledAmountMicros: `${quoted}`,
    });
    const stored = await storedPlan(document.planId);
    // The wrap books what the WETH mint proved wrapped, not the plan's figure.
    expect(stored.legs[0]).toMatchObject({
      action: 'wrap',
      status: 'confirmed',
      settledAmountMicros: `${wei}`,
    });
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it.each([
    ['0', /amountInMicros/],
    ['0.5', /amountInMicros/],
    ['1.0000000000000000001', /amountInMicros/],
  ])('ETH in, amountInMicros %s: 400 naming the field, nothing stored', async (amount) => {
    const res = await plan(
      swapBody({ inputToken: 'ETH', outputToken: 'USDC', amountInMicros: amount }),
    ).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.amountInMicros' });
  });

  it('ETH both ways: 400 naming outputToken (both are WETH)', async () => {
    const res = await plan(swapBody({ inputToken: 'ETH', outputToken: 'ETH' })).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.outputToken' });
  });

  itFailsAStaleFill({
    app: () => t,
    setStale: () => fake.setMode('stale'),
    send: () => plan(swapBody({ amountInMicros: '20000000' })),
    signAndSettle: async (document) => keeperSettles(document, await signAndSend(document)),
    failureReason: /below the minimum/,
  });

  it("a transaction that is not the swap leg's settles nothing: 422 RECEIPT_MISMATCH", async () => {
    const document = SwapPlanDocument.parse((await plan(swapBody())).body);
    const approve = document.legs?.[0];
    expect(approve?.action).toBe('approve');
    const tx = approve?.transaction as { to: Address; data: Hex };
    const approveTx = await wallet().sendTransaction({ to: tx.to, data: tx.data });
    await reader().waitForTransactionReceipt({ hash: approveTx, pollingInterval: 20 });
    const res = await request(t.app)
      .post(`/api/v1/svc/plans/${document.planId}/legs/1/settle`)
      .set('X-API-Key', testKeys.keeper)
      .send({ txId: approveTx })
      .expect(422);
    expect(res.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.txId' });
    const stored = await storedPlan(document.planId);
    expect(stored.legs[1]).toMatchObject({ status: 'unsigned', txId: null });
  });

  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_liquidity',
    setMode: (mode) => fake.setMode(mode),
    send: () => plan(swapBody()),
    parse: (body) => SwapPlanDocument.parse(body),
    unpriced: ['quotedAmountOutMicros'],
  });

  itRefusesBadInput({
    app: () => t,
    cases: swapBadInputCases(['sui'], SAMPLE_ADDRESSES.solana),
    send: (change) => plan(swapBody(change)),
  });

  it('is listed as implemented in /svc/routes', async () => {
    const routes = RoutesDocument.parse((await request(t.app).get('/api/v1/svc/routes')).body);
    expect(routes.routes.find((route) => route.operationId === 'prepareEvmSwapPlan')).toMatchObject(
      { implemented: true, path: '/api/v1/svc/evm/swap/plan' },
    );
  });
});

describe('POST /svc/evm/swap/plan without a quote source', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({
      SVC_BASE_RPC_URL: bed.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: bed.fixtures.usdc,
    });
  });
  afterAll(() => bare.close());

  it('is blocked quote_source_not_configured, naming the settings', async () => {
    const res = await request(bare.app)
      .post('/api/v1/svc/evm/swap/plan')
      .send(swapBody())
      .expect(200);
    const document = SwapPlanDocument.parse(res.body);
    expect(document.status).toBe('blocked');
    expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
      ['quote_source_not_configured', 'SVC_ZEROX_BASE_URL'],
      ['quote_source_not_configured', 'SVC_BASE_SWAP_FEE_RECIPIENT'],
    ]);
  });
});
