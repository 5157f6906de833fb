import request from 'supertest';
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainAdapters } from '@yieldrouter/engine';
import type { ChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import { StoredPlanDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts, anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { startSwapBedApp } from './testing/startSwapBedApp';

// Issue 41: an EVM swap plan into the native token by its symbol (`ETH`, as aggregators take
// it): the swap buys WETH, an unwrap leg turns the swap's minimum out into ETH, and each leg
// settles from its own receipt (the unwrap's wei from the WETH Withdrawal log).
const owner = anvilAccounts()[5];
if (!owner) throw new Error('no anvil account');

let bed: EvmBed;
let t: TestApp;
let adapters: ChainAdapters;
let swapApp: SwapBedApp;

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, t } = swapApp);
  await bed.fixtures.mintUsdc(owner.address, 500_000_000n);
  adapters = createChainAdapters({
    chains: t.config.chains,
    ids: t.config.onChainIds,
    switches: t.config.switches,
  });
}, 60_000);
afterAll(() => swapApp.close());

const chain = () => anvilChain(8453, bed.anvil.rpcUrl);
const reader = () => createPublicClient({ chain: chain(), transport: http(bed.anvil.rpcUrl) });
const wethOf = (who: Address) =>
  reader().readContract({
    address: bed.fixtures.weth,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
  });

it('swaps USDC into ETH: swap then unwrap, the ETH settled from the unwrap receipt', async () => {
  const res = await request(t.app)
    .post('/api/v1/svc/evm/swap/plan')
    .send({
      chain: 'base',
      owner: owner.address,
      inputToken: 'USDC',
      outputToken: 'ETH',
      amountInMicros: '100000000',
    })
    .expect(200);
  const document = SwapPlanDocument.parse(res.body);
  expect(document).toMatchObject({ status: 'prepared', inputToken: 'USDC', outputToken: 'WETH' });
  expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
    ['approve', false],
    ['swap', true],
    ['unwrap', true],
  ]);
  const min = BigInt(document.minAmountOutMicros ?? '0');
  const quoted = BigInt(document.quotedAmountOutMicros ?? '0');
  expect(min > 0n && min <= quoted).toBe(true);

  // The owner signs and sends each leg: the ETH balance moves by the unwrap less the gas paid.
  const wallet = createWalletClient({
    chain: chain(),
    transport: http(bed.anvil.rpcUrl),
    account: privateKeyToAccount(owner.privateKey),
  });
  const [ethBefore, wethBefore] = [
    await reader().getBalance({ address: owner.address }),
    await wethOf(owner.address),
  ];
  const hashes: Hex[] = [];
  let gasPaid = 0n;
  for (const leg of document.legs ?? []) {
    const tx = leg.transaction as { to: Address; data: Hex; value: string };
    const hash = await wallet.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
    });
    const receipt = await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    gasPaid += receipt.gasUsed * receipt.effectiveGasPrice;
    hashes.push(hash);
  }
  expect((await reader().getBalance({ address: owner.address })) - ethBefore + gasPaid).toBe(min);
  // The swap filled at the quote here: what it paid above the minimum stays WETH.
  expect((await wethOf(owner.address)) - wethBefore).toBe(quoted - min);

  // The keeper settles both legs from their receipts.
  for (const legIndex of [1, 2]) {
    await markLegSubmitted(t.db, {
      planId: document.planId ?? '',
      legIndex,
      txId: hashes[legIndex] ?? '',
      now: new Date(),
    });
  }
  const deps = testJobDeps(
    { url: '', db: t.db, drop: async () => undefined },
    { adapters, venues: t.config.venues },
  );
  // The unwrap is booked once its swap leg is final: two passes at most.
  await watchSettlements(deps);
  await watchSettlements(deps);
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${document.planId}`).expect(200)).body,
  );
  expect(
    stored.legs.slice(1).map((leg) => [leg.action, leg.status, leg.settledAmountMicros]),
  ).toEqual([
    ['swap', 'confirmed', String(quoted)],
    ['unwrap', 'confirmed', String(min)],
  ]);
  expect(await verifyLedger(t.db)).toMatchObject({ ok: true, problems: [] });
});

it('refuses ETH as the input, naming the field: wrapping is not built', async () => {
  const res = await request(t.app)
    .post('/api/v1/svc/evm/swap/plan')
    .send({
      chain: 'base',
      owner: owner.address,
      inputToken: 'ETH',
      outputToken: 'USDC',
      amountInMicros: '1000000000000000',
    })
    .expect(400);
  expect(res.body).toMatchObject({ code: 'NATIVE_TOKEN_NOT_SWAPPABLE', field: 'body.inputToken' });
});
