import request from 'supertest';
import { encodeFunctionData, erc20Abi } from 'viem';
import { markLegSubmitted, readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { GasSponsorPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { SWAP_FEE_RECIPIENT, startSwapBedApp } from './testing/startSwapBedApp';
import { bedClients, seedLiquid, sendLeg, storedPlan, watchOnce } from './testing/swapBedHelpers';

// The gas-sponsor plan's legs in the books: the swap leg sells liquid USDC (its receipt's
// amount), its gas-sponsor fee goes to fees:protocol, the WETH it bought comes into liquid in
// WETH; the unwrap leg turns that WETH into native, booked in the native asset.
const account = anvilAccounts()[7];
if (!account) throw new Error('no anvil account');
const owner = account;
const ROUTED = 40_000_000n;

let bed: EvmBed;
let t: TestApp;
let swapApp: SwapBedApp;
let clients: ReturnType<typeof bedClients>;

const liquid = (asset?: string): AccountRef => ({
  wallet: owner.address,
  chain: 'base',
  bucket: 'liquid',
  ...(asset ? { asset } : {}),
});
const balance = (ref: AccountRef) => readAccountBalance(t.db, ref);

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, t } = swapApp);
  clients = bedClients(bed, owner.privateKey);
  await bed.fixtures.mintUsdc(owner.address, 50_000_000n);
  await clients.anvil('anvil_setNextBlockBaseFeePerGas', ['0x0']);
  await clients.anvil('evm_mine', []);
  await clients.anvil('anvil_setBalance', [owner.address, '0x3e8']);
  await seedLiquid(t, owner.address, 'base', ROUTED);
}, 60_000);
afterAll(() => swapApp.close());

describe('gas-sponsor legs in the books', () => {
  it('the swap and unwrap legs settle from their receipts and book per asset', async () => {
    const calls = [
      {
        to: bed.fixtures.usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [SWAP_FEE_RECIPIENT, 1_000_000n],
        }),
      },
    ];
    const document = GasSponsorPlanDocument.parse(
      (
        await request(t.app)
          .post('/api/v1/svc/gas-sponsor/plan')
          .send({ chain: 'base', owner: owner.address, calls })
          .expect(200)
      ).body,
    );
    expect(document.status).toBe('prepared');
    expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
      ['approve', false],
      ['swap', true],
      ['unwrap', true],
    ]);
    const needed = BigInt(document.nativeNeeded ?? '0');
    const gross = BigInt(document.usdcCostMicros ?? '0');
    const fee = BigInt(document.feeMicros ?? '0');
    expect(needed > 0n && gross > 0n).toBe(true);

    const planId = document.planId ?? '';
    const sent: { index: number; txId: string }[] = [];
    for (const leg of document.legs ?? []) {
      const txId = await sendLeg(clients, leg.transaction, {
        maxFeePerGas: 0n,
        maxPriorityFeePerGas: 0n,
      });
      if (leg.settles) sent.push({ index: leg.index, txId });
    }
    const [swapSent, unwrapSent] = sent;
    const submit = (leg: { index: number; txId: string } | undefined) =>
      markLegSubmitted(t.db, {
        planId,
        legIndex: leg?.index ?? -1,
        txId: leg?.txId ?? '',
        now: new Date(),
      });
    const feesBefore = await balance({ system: 'fees:protocol' });
    // The unwrap takes what the swap bought: it is booked once the swap leg is final. Reported
    // first, it is held (the keeper keeps watching it) while the swap leg is open…
    await submit(unwrapSent);
    expect(await watchOnce(t)).toMatchObject({ confirmed: 0 });
    // …and booked once the swap leg is: in the same watch run or the next one.
    await submit(swapSent);
    let confirmed = 0;
    for (let run = 0; run < 3 && confirmed < 2; run += 1) {
      confirmed += (await watchOnce(t)).confirmed ?? 0;
    }
    expect(confirmed).toBe(2);
    const stored = await storedPlan(t, planId);
    const [, swapLeg, unwrapLeg] = stored.legs;
    expect(swapLeg?.status).toBe('confirmed');
    expect(unwrapLeg).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: needed.toString(),
    });
    const bought = BigInt(swapLeg?.settledAmountMicros ?? '0');
    expect(bought >= needed).toBe(true);

    const weth = bed.fixtures.weth.toLowerCase();
    expect(await balance(liquid())).toBe(ROUTED - gross);
    expect((await balance({ system: 'fees:protocol' })) - feesBefore).toBe(fee);
    expect(await balance(liquid(weth))).toBe(bought - needed);
    expect(await balance(liquid('native'))).toBe(needed);
    expect(await balance({ system: 'external', chain: 'base', asset: 'native' })).toBe(-needed);
    expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });

    const activity = await request(t.app)
      .get(`/api/v1/svc/activity?wallet=${owner.address}`)
      .expect(200);
    expect(
      activity.body.activity.filter((row: { planId: string }) => row.planId === planId),
    ).toEqual([
      expect.objectContaining({ legIndex: 1, kind: 'swap', amountOut: bought.toString() }),
      expect.objectContaining({
        legIndex: 2,
        kind: 'swap',
        amountIn: needed.toString(),
        amountOut: needed.toString(),
        quotedAmountOut: needed.toString(),
      }),
    ]);
  });
});
