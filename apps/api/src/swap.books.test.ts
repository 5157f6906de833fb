import request from 'supertest';
import type { Address, Hex } from 'viem';
import {
  markLegSubmitted,
  readAccountBalance,
  readAssetBalances,
  readBalancesOf,
  verifyLedger,
} from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { SwapPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { startSwapBedApp } from './testing/startSwapBedApp';
import { bedClients, seedLiquid, sendLeg, storedPlan, watchOnce } from './testing/swapBedHelpers';

// Swaps in the books (issue 17, DESIGN §3): a swap leg settled by the keeper debits the input
// asset's liquid and credits the output's, per asset, from the receipt; the service fee goes to
// fees:protocol; a fill below minAmountOut moves nothing.
const account = anvilAccounts()[5];
if (!account) throw new Error('no anvil account');
const owner = account;

let bed: EvmBed;
let fake: ZeroExFake;
let t: TestApp;
let swapApp: SwapBedApp;
let clients: ReturnType<typeof bedClients>;

/** What a settled route left the owner in liquid USDC on Base (the books' side of its receipt). */
const ROUTED = 150_000_000n;

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, fake, t } = swapApp);
  clients = bedClients(bed, owner.privateKey);
  await bed.fixtures.mintUsdc(owner.address, 500_000_000n);
  await seedLiquid(t, owner.address, 'base', ROUTED);
}, 60_000);
afterAll(() => swapApp.close());
afterEach(() => fake.setMode('ok'));

const liquid = (asset?: string): AccountRef => ({
  wallet: owner.address,
  chain: 'base',
  bucket: 'liquid',
  ...(asset ? { asset } : {}),
});
const weth = () => bed.fixtures.weth.toLowerCase();
const balance = (ref: AccountRef) => readAccountBalance(t.db, ref);
const protocolFees = () => balance({ system: 'fees:protocol' });

async function prepare(body: Record<string, unknown>) {
  const res = await request(t.app)
    .post('/api/v1/svc/evm/swap/plan')
    .send({ chain: 'base', owner: owner.address, ...body })
    .expect(200);
  const document = SwapPlanDocument.parse(res.body);
  expect(document.status).toBe('prepared');
  return document;
}

/** The owner signs every leg; the keeper's settlement watch settles the swap leg. */
async function signAndSettle(document: SwapPlanDocument) {
  let txId = '';
  for (const leg of document.legs ?? []) txId = await sendLeg(clients, leg.transaction);
  const planId = document.planId ?? '';
  const legIndex = (document.legs?.length ?? 0) - 1;
  await markLegSubmitted(t.db, { planId, legIndex, txId, now: new Date() });
  const counts = await watchOnce(t);
  return { counts, leg: (await storedPlan(t, planId)).legs[legIndex] };
}
describe('swap legs in the books', () => {
  it('USDC → WETH: liquid USDC pays the input, the fee goes to fees:protocol, WETH comes into liquid', async () => {
    const feesBefore = await protocolFees();
    const document = await prepare({
      inputToken: 'USDC',
      outputToken: 'WETH',
      amountInMicros: '100000000',
    });
    const { counts, leg } = await signAndSettle(document);
    expect(counts).toMatchObject({ confirmed: 1 });
    expect(leg?.status).toBe('confirmed');
    const out = BigInt(leg?.settledAmountMicros ?? '0');
    expect(out).toBeGreaterThan(0n);

    // On main only the fee moved: liquid stayed at 150 USDC while the chain took 100.
    expect(await balance(liquid())).toBe(ROUTED - 100_000_000n);
    expect((await protocolFees()) - feesBefore).toBe(100_000n);
    expect(await balance({ system: 'external', chain: 'base' })).toBe(
      -ROUTED + 100_000_000n - 100_000n,
    );
    expect(await balance(liquid(weth()))).toBe(out);
    expect(await balance({ system: 'external', chain: 'base', asset: weth() })).toBe(-out);
    // USDC money fields read USDC only; the WETH is read per asset.
    const rows = await readBalancesOf(t.db, [owner.address]);
    expect(rows.map((row) => [row.bucket, row.balanceMicros])).toEqual([
      ['liquid', ROUTED - 100_000_000n],
    ]);
    expect(await readAssetBalances(t.db, owner.address)).toEqual([
      { chain: 'base', asset: weth(), balance: out },
    ]);
    const entry = await t.db.journalEntry.findFirstOrThrow({
      where: { planId: document.planId ?? '' },
      include: { postings: { include: { account: true } } },
    });
    const byAsset = new Map<string, bigint>();
    for (const posting of entry.postings) {
      const asset = posting.account.asset;
      byAsset.set(asset, (byAsset.get(asset) ?? 0n) + posting.amountMicros);
    }
    expect([...byAsset.values()]).toEqual([0n, 0n]);
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('WETH → USDC: the WETH leaves liquid, the USDC received is credited to liquid', async () => {
    const heldWeth = await balance(liquid(weth()));
    const sell = heldWeth / 2n;
    const liquidBefore = await balance(liquid());
    const document = await prepare({
      inputToken: 'WETH',
      outputToken: 'USDC',
      amountInMicros: sell.toString(),
    });
    const { leg } = await signAndSettle(document);
    expect(leg?.status).toBe('confirmed');
    const out = BigInt(leg?.settledAmountMicros ?? '0');
    expect(await balance(liquid())).toBe(liquidBefore + out);
    expect(await balance(liquid(weth()))).toBe(heldWeth - sell);
    // The service fee was paid in WETH: it is kept in WETH, on Base.
    const fee = (sell * 10n) / 10_000n;
    expect(await balance({ system: 'fees:protocol', chain: 'base', asset: weth() })).toBe(fee);
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true });
  });

  it('a fill below minAmountOut fails the leg and moves nothing', async () => {
    fake.setMode('stale');
    const before = {
      usdc: await balance(liquid()),
      weth: await balance(liquid(weth())),
      fees: await protocolFees(),
    };
    const document = await prepare({
      inputToken: 'USDC',
      outputToken: 'WETH',
      amountInMicros: '20000000',
    });
    const { counts, leg } = await signAndSettle(document);
    expect(counts).toMatchObject({ failed: 1 });
    expect(leg).toMatchObject({ status: 'failed', settledAmountMicros: null });
    expect({
      usdc: await balance(liquid()),
      weth: await balance(liquid(weth())),
      fees: await protocolFees(),
    }).toEqual(before);
    expect(await t.db.journalEntry.count({ where: { planId: document.planId ?? '' } })).toBe(0);
  });
});

describe('a swap plan executed after its quote expired', () => {
  /** The owner's signed bytes of a leg, as a wallet hands them back (EVM: serialized hex). */
  async function signedLeg(document: SwapPlanDocument, legIndex: number) {
    const tx = document.legs?.[legIndex]?.transaction as { to: Address; data: Hex; value: string };
    // Signed offline (no estimate: the swap would revert before its approval is mined).
    return clients.wallet.signTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: 500_000n,
      nonce: 0,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
  }
  const execute = (planId: string, legIndex: number, signedTransaction: string) =>
    request(t.app)
      .post('/api/v1/svc/strategies/deposit/execute')
      .send({ planId, legIndex, signedTransaction });

  it('is refused 409 QUOTE_EXPIRED naming the plan; nothing is recorded', async () => {
    const document = await prepare({
      inputToken: 'USDC',
      outputToken: 'WETH',
      amountInMicros: '1000000',
    });
    const planId = document.planId ?? '';
    const legIndex = (document.legs?.length ?? 0) - 1;
    const signed = await signedLeg(document, legIndex);
    // Within its quote's life the plan reaches the broadcast check (Base is a Map chain: off).
    const fresh = await execute(planId, legIndex, signed).expect(422);
    expect(fresh.body.code).toBe('BROADCAST_DISABLED');

    await t.db.$executeRaw`
      UPDATE plans SET swap = jsonb_set(swap, '{expiresAt}', to_jsonb(${new Date(Date.now() - 1_000).toISOString()}::text))
      WHERE id = ${planId}`;
    const before = await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200);
    for (const index of [0, legIndex]) {
      const res = await execute(planId, index, await signedLeg(document, index)).expect(409);
      expect(res.body).toMatchObject({ code: 'QUOTE_EXPIRED', field: 'body.planId' });
      expect(res.body.message).toMatch(/prepare a new plan/i);
    }
    const after = await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200);
    expect(after.body).toEqual(before.body);
    expect(after.body.legs.map((leg: { status: string }) => leg.status)).toEqual(
      document.legs?.map(() => 'unsigned'),
    );
  });

  it('is in the error catalog and the OpenAPI description of execute', async () => {
    const errors = await request(t.app).get('/api/v1/svc/errors').expect(200);
    expect(JSON.stringify(errors.body)).toContain('QUOTE_EXPIRED');
    const openapi = await request(t.app).get('/api/v1/openapi.json').expect(200);
    expect(JSON.stringify(openapi.body)).toContain('409 QUOTE_EXPIRED');
  });
});
