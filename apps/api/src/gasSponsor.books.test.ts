import request from 'supertest';
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import {
  markLegSubmitted,
  postJournalEntry,
  readAccountBalance,
  runLedgerTransaction,
  verifyLedger,
} from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { GasSponsorPlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts, anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { SWAP_FEE_RECIPIENT, startSwapBedApp } from './testing/startSwapBedApp';

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

const chain = () => anvilChain(8453, bed.anvil.rpcUrl);
const reader = () => createPublicClient({ chain: chain(), transport: http(bed.anvil.rpcUrl) });
const anvilRequest = (method: string, params: unknown[]) =>
  reader().request({ method: method as never, params: params as never });
const liquid = (asset?: string): AccountRef => ({
  wallet: owner.address,
  chain: 'base',
  bucket: 'liquid',
  ...(asset ? { asset } : {}),
});
const balance = (account: AccountRef) => readAccountBalance(t.db.prisma, account);

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, t } = swapApp);
  await bed.fixtures.mintUsdc(owner.address, 50_000_000n);
  await anvilRequest('anvil_setNextBlockBaseFeePerGas', ['0x0']);
  await anvilRequest('evm_mine', []);
  await anvilRequest('anvil_setBalance', [owner.address, '0x3e8']);
  await runLedgerTransaction(t.db.prisma, (tx) =>
    postJournalEntry(tx, {
      kind: 'test.routed',
      postings: [
        { account: { system: 'external', chain: 'base' }, amountMicros: -ROUTED },
        { account: liquid(), amountMicros: ROUTED },
      ],
    }),
  );
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

    const wallet = createWalletClient({
      chain: chain(),
      transport: http(bed.anvil.rpcUrl),
      account: privateKeyToAccount(owner.privateKey),
    });
    const planId = document.planId ?? '';
    for (const leg of document.legs ?? []) {
      const tx = leg.transaction as { to: Address; data: Hex; value: string };
      const hash = await wallet.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        maxFeePerGas: 0n,
        maxPriorityFeePerGas: 0n,
      });
      await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (leg.settles) {
        await markLegSubmitted(t.db.prisma, {
          planId,
          legIndex: leg.index,
          txId: hash,
          now: new Date(),
        });
      }
    }
    const feesBefore = await balance({ system: 'fees:protocol' });
    const watch = () =>
      watchSettlements(
        testJobDeps(
          { url: '', db: t.db, drop: async () => undefined },
          {
            adapters: createChainAdapters({
              chains: t.config.chains,
              ids: t.config.onChainIds,
              switches: t.config.switches,
            }),
            venues: t.config.venues,
          },
        ),
      );
    // The unwrap takes what the swap bought: it is booked once the swap leg is final.
    expect(await watch()).toMatchObject({ confirmed: 1 });
    expect(await watch()).toMatchObject({ confirmed: 1 });
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
    );
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
    expect(await verifyLedger(t.db.prisma)).toMatchObject({ ok: true, problems: [] });

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
