import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import {
  createChainAdapters,
  createCetusQuoteSource,
  prepareGasSponsorPlan,
} from '@yieldrouter/engine';
import { markLegSubmitted, readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { FeesDocument, GasSponsorPlanDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import type { CetusFake } from '@yieldrouter/chain-beds/quotes';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { FAKE_GAS_USED } from '@yieldrouter/chain-beds/sui';
import type { TestApp } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import {
  SUI_SWAP_FEE_RECIPIENT,
  SUI_TEST_USDC,
  startSuiSwapBedApp,
} from './testing/startSuiSwapBedApp';
import { seedLiquid, storedPlan, watchOnce } from './testing/swapBedHelpers';
import { itBlocksOnQuoteFaults } from './testing/swapTestTables';

// The gas-sponsor plan on Sui, end to end on the Sui fake: a stored Cetus swap plan's leg is
// dry-run (sui_dryRunTransactionBlock) for its gas budget plus the SUI it spends, against the
// owner's SUI; the missing mist is priced in USDC through the Cetus-shaped fake over the bed's
// USDC/SUI pool; the owner signs the one top-up leg (USDC → SUI, the gas-sponsor fee split off
// in the same transaction), the fake runs it, and the keeper settles it into the books per asset.
const SUI = '0x2::sui::SUI';
const SUI_FULL = `0x${'0'.repeat(63)}2::sui::SUI`;
const HELD = 100_000_000n;
const SPEND = 500_000_000n;
const ROUTED = 400_000_000n;
const charged =
  BigInt(FAKE_GAS_USED.computationCost) +
  BigInt(FAKE_GAS_USED.storageCost) -
  BigInt(FAKE_GAS_USED.storageRebate);

let bed: SuiSwapBedApp;
let sui: SuiFake;
let cetus: CetusFake;
let t: TestApp;
let client: SuiJsonRpcClient;

beforeAll(async () => {
  bed = await startSuiSwapBedApp();
  ({ sui, cetus, t, client } = bed);
}, 60_000);
afterAll(() => bed.close());
afterEach(() => cetus.setMode('ok'));

/** A wallet holding `held` mist and 500 USDC on the fake. */
function wallet(held = HELD) {
  const keypair = new Ed25519Keypair();
  const owner = keypair.toSuiAddress();
  sui.setBalance(owner, SUI, held);
  sui.setBalance(owner, SUI_TEST_USDC, 500_000_000n);
  return { keypair, owner };
}

/** A stored Cetus swap plan selling `SPEND` mist for USDC: one unsigned leg to size. */
async function suiSwapPlan(owner: string) {
  const res = await request(t.app)
    .post('/api/v1/svc/cetus/plan')
    .send({ owner, inputToken: 'SUI', outputToken: 'USDC', amountInMicros: SPEND.toString() })
    .expect(200);
  const plan = SwapPlanDocument.parse(res.body);
  expect(plan.status).toBe('prepared');
  return plan;
}

const gasPlan = async (owner: string, planId: string | undefined) =>
  GasSponsorPlanDocument.parse(
    (
      await request(t.app)
        .post('/api/v1/svc/gas-sponsor/plan')
        .send({ chain: 'sui', owner, planId })
        .expect(200)
    ).body,
  );
const balanceOf = async (owner: string, coinType = SUI) =>
  BigInt((await client.getBalance({ owner, coinType })).totalBalance);
const book = (ref: AccountRef) => readAccountBalance(t.db, ref);

describe('POST /svc/gas-sponsor/plan on Sui', () => {
  it('dry-runs the plan, prices the top-up through Cetus; the signed leg delivers the gas and settles per asset', async () => {
    const { keypair, owner } = wallet();
    await seedLiquid(t, owner, 'sui', ROUTED);
    const swap = await suiSwapPlan(owner);
    const document = await gasPlan(owner, swap.planId);
    // One leg: the wallet budget of its dry run (computation + 1000 × gas price + storage −
    // rebate) plus the SUI it sells.
    const budget = charged + 1000n * sui.referenceGasPrice;
    expect(document).toMatchObject({
      kind: 'gas_sponsor',
      status: 'prepared',
      ownerMustSign: true,
      chain: 'sui',
      owner,
      nativeRequired: String(budget + SPEND),
      nativeHeld: String(HELD),
      nativeNeeded: String(budget + SPEND - HELD),
      quoteSource: 'cetus',
    });
    expect(document.gasUnits).toBeUndefined();
    expect(document.feePerGas).toBeUndefined();
    const gross = BigInt(document.usdcCostMicros ?? '0');
    const fees = FeesDocument.parse((await request(t.app).get('/api/v1/svc/fees')).body);
    const fee = (gross * BigInt(fees.gasSponsorFeeBps)) / 10_000n;
    expect(document.feeLines?.find((line) => line.kind === 'gas_sponsor_fee')).toEqual({
      kind: 'gas_sponsor_fee',
      bps: fees.gasSponsorFeeBps,
      amountMicros: fee.toString(),
      token: 'USDC',
      payer: 'owner',
    });
    expect(document.feeMicros).toBe(fee.toString());
    expect(document.amountMicros).toBe(gross.toString());
    // The routes are asked for the USDC less the fee the leg splits off first.
    expect(cetus.requests.at(-1)).toMatchObject({
      amount: String(gross - fee),
      by_amount_in: 'true',
    });
    expect(document.legs?.map((leg) => [leg.action, leg.settles, leg.encoding])).toEqual([
      ['swap', true, 'sui-transaction-json'],
    ]);

    // The owner's wallet resolves, signs and sends the top-up; its own gas comes out of HELD.
    const leg = document.legs?.[0];
    const tx = Transaction.from(leg?.transaction as string);
    tx.setGasPrice(sui.referenceGasPrice);
    tx.setGasBudget(budget);
    const bytes = await tx.build({ client });
    const { signature } = await keypair.signTransaction(bytes);
    const txId = (await client.executeTransactionBlock({ transactionBlock: bytes, signature }))
      .digest;
    const after = await balanceOf(owner);
    const bought = after - HELD + charged;
    expect(after >= budget + SPEND).toBe(true);
    expect(await balanceOf(SUI_SWAP_FEE_RECIPIENT, SUI_TEST_USDC)).toBe(fee);

    // The keeper settles it from its balance changes: USDC out of liquid, the fee to
    // fees:protocol, the SUI bought (the change plus the gas the owner's coin paid) in SUI.
    const planId = document.planId ?? '';
    await markLegSubmitted(t.db, { planId, legIndex: 0, txId, now: new Date() });
    const feesBefore = await book({ system: 'fees:protocol' });
    expect(await watchOnce(t)).toMatchObject({ confirmed: 1 });
    const stored = await storedPlan(t, planId);
    expect(stored.legs[0]).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: bought.toString(),
    });
    expect(await book({ wallet: owner, chain: 'sui', bucket: 'liquid' })).toBe(ROUTED - gross);
    expect((await book({ system: 'fees:protocol' })) - feesBefore).toBe(fee);
    expect(await book({ wallet: owner, chain: 'sui', bucket: 'liquid', asset: SUI_FULL })).toBe(
      bought,
    );
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });

    // Now the wallet holds enough: the same plan needs no top-up.
    const again = await gasPlan(owner, swap.planId);
    expect(again).toMatchObject({ status: 'prepared', nativeNeeded: '0' });
    expect(again.legs ?? []).toEqual([]);
  });

  // The swap plan to size is priced first; then the top-up's own quote meets the fault.
  let sized: { owner: string; planId: string | undefined };
  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_route',
    arrange: async () => {
      const { owner } = wallet();
      sized = { owner, planId: (await suiSwapPlan(owner)).planId };
    },
    setMode: (mode) => cetus.setMode(mode),
    send: () =>
      request(t.app)
        .post('/api/v1/svc/gas-sponsor/plan')
        .send({ chain: 'sui', ...sized }),
    parse: (body) => GasSponsorPlanDocument.parse(body),
    unpriced: ['usdcCostMicros'],
    source: 'cetus',
  });

  it('a leg whose dry run aborts → blocked gas_estimate_unavailable with the reason', async () => {
    const { owner } = wallet();
    cetus.setMode('stale');
    const swap = await suiSwapPlan(owner);
    cetus.setMode('ok');
    const document = await gasPlan(owner, swap.planId);
    expect(document.status).toBe('blocked');
    expect(document.blockers?.[0]?.code).toBe('gas_estimate_unavailable');
    expect(document.blockers?.[0]?.details?.['detail']).toMatch(/check_coin_threshold/);
  });

  it("a wallet short of the top-up's own gas budget → blocked, it could not send it", async () => {
    const { owner } = wallet(1_000n);
    const swap = await suiSwapPlan(owner);
    const document = await gasPlan(owner, swap.planId);
    expect(document.status).toBe('blocked');
    expect(document.blockers?.[0]).toMatchObject({ code: 'gas_estimate_unavailable' });
    expect(document.blockers?.[0]?.details?.['detail']).toMatch(/own gas budget/);
  });

  describe('through the engine, with other settings', () => {
    const prepare = async (
      owner: string,
      planId: string | undefined,
      change: {
        cetus?: typeof t.config.cetus;
        noSource?: boolean;
        rpcUrl?: string;
      },
    ) =>
      prepareGasSponsorPlan({
        db: t.db,
        adapters: createChainAdapters({
          chains: {
            ...t.config.chains,
            sui: { ...t.config.chains.sui, rpcUrl: change.rpcUrl ?? sui.rpcUrl },
          },
          ids: t.config.onChainIds,
          switches: t.config.switches,
        }),
        swaps: t.config.swaps,
        source: undefined,
        cetus: change.cetus ?? t.config.cetus,
        suiSource:
          change.noSource || !t.config.cetus.source
            ? undefined
            : createCetusQuoteSource({ ...t.config.cetus.source, quoteTtlMs: 30_000 }),
        request: { chain: 'sui', owner, ...(planId ? { planId } : {}) },
        now: new Date(),
      });

    it('no Cetus source → blocked quote_source_not_configured naming SVC_CETUS_BASE_URL', async () => {
      const { owner } = wallet();
      const swap = await suiSwapPlan(owner);
      const document = await prepare(owner, swap.planId, { noSource: true });
      expect(document.status).toBe('blocked');
      expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_CETUS_BASE_URL'],
      ]);
    });

    it('no Sui fee recipient → blocked naming SVC_SUI_SWAP_FEE_RECIPIENT', async () => {
      const { owner } = wallet();
      const swap = await suiSwapPlan(owner);
      const document = await prepare(owner, swap.planId, {
        cetus: { ...t.config.cetus, feeRecipient: undefined },
      });
      expect(document.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_SUI_SWAP_FEE_RECIPIENT'],
      ]);
    });

    it('the Sui RPC down → blocked rpc_unavailable, no price', async () => {
      const { owner } = wallet();
      const swap = await suiSwapPlan(owner);
      const document = await prepare(owner, swap.planId, { rpcUrl: 'http://127.0.0.1:9' });
      expect(document.status).toBe('blocked');
      expect(document.blockers?.map((entry) => entry.code)).toEqual(['rpc_unavailable']);
      expect(document.usdcCostMicros).toBeUndefined();
    });
  });
});
