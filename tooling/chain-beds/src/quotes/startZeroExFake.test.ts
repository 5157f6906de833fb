import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilAccounts } from '../evm/anvilAccounts';
import { anvilChain } from '../evm/anvilChain';
import { startEvmBed } from '../evm/startEvmBed';
import type { EvmBed } from '../evm/startEvmBed';
import { startZeroExFake } from './startZeroExFake';
import type { ZeroExFake } from './startZeroExFake';

const CHAIN_ID = 8453;
const FEE_RECIPIENT: Address = '0x000000000000000000000000000000000000fee5';

describe('0x-shaped quote fake over the bed pair', () => {
  let bed: EvmBed;
  let fake: ZeroExFake;
  const owner = anvilAccounts()[3];
  if (!owner) throw new Error('no anvil account');

  beforeAll(async () => {
    bed = await startEvmBed({ chainId: CHAIN_ID });
    fake = await startZeroExFake({
      chains: [{ rpcUrl: bed.anvil.rpcUrl, chainId: CHAIN_ID, pair: bed.fixtures.pair }],
      slowMs: 1_500,
    });
    await bed.fixtures.mintUsdc(owner.address, 1_000_000_000n);
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    await bed.stop();
  });

  const ask = async (sellAmount: bigint) => {
    const url = new URL('/swap/allowance-holder/quote', fake.url);
    url.search = new URLSearchParams({
      chainId: String(CHAIN_ID),
      sellToken: bed.fixtures.usdc,
      buyToken: bed.fixtures.weth,
      sellAmount: sellAmount.toString(),
      taker: owner.address,
      slippageBps: '100',
      swapFeeBps: '10',
      swapFeeRecipient: FEE_RECIPIENT,
      swapFeeToken: bed.fixtures.usdc,
    }).toString();
    const response = await fetch(url, { headers: { '0x-version': 'v2' } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const chain = () => anvilChain(CHAIN_ID, bed.anvil.rpcUrl);
  const wallet = () =>
    createWalletClient({
      chain: chain(),
      transport: http(bed.anvil.rpcUrl),
      account: privateKeyToAccount(owner.privateKey),
    });
  const reader = () => createPublicClient({ chain: chain(), transport: http(bed.anvil.rpcUrl) });
  const balance = (token: Address, who: Address) =>
    reader().readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [who],
    });

  const execute = async (body: Record<string, unknown>, amount: bigint) => {
    const transaction = body['transaction'] as { to: Address; data: Hex };
    const approve = await wallet().writeContract({
      address: bed.fixtures.usdc,
      abi: erc20Abi,
      functionName: 'approve',
      args: [body['allowanceTarget'] as Address, amount],
    });
    await reader().waitForTransactionReceipt({ hash: approve, pollingInterval: 20 });
    const hash = await wallet().sendTransaction({ to: transaction.to, data: transaction.data });
    return reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
  };

  it("quotes from the pair's reserves in 0x's shape; its transaction fills the quote", async () => {
    const { status, body } = await ask(100_000_000n);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      liquidityAvailable: true,
      chainId: CHAIN_ID,
      sellAmount: '100000000',
      allowanceTarget: bed.fixtures.pair,
      fees: { integratorFee: { amount: '100000', type: 'volume' }, gasFee: null },
      issues: { allowance: { actual: '0', spender: bed.fixtures.pair } },
    });
    const buyAmount = BigInt(body['buyAmount'] as string);
    // About 100 USDC at 3,000 USDC/WETH, less the fees.
    expect(buyAmount > 33_000_000_000_000_000n && buyAmount < 33_400_000_000_000_000n).toBe(true);
    const before = await balance(bed.fixtures.weth, owner.address);
    const receipt = await execute(body, 100_000_000n);
    expect(receipt.status).toBe('success');
    expect((await balance(bed.fixtures.weth, owner.address)) - before).toBe(buyAmount);
    expect(await balance(bed.fixtures.usdc, FEE_RECIPIENT)).toBe(100_000n);
  });

  it('stale: the quote promises more than the pair pays, and the transaction does not stop it', async () => {
    fake.setMode('stale');
    const { body } = await ask(10_000_000n);
    const before = await balance(bed.fixtures.weth, owner.address);
    expect((await execute(body, 10_000_000n)).status).toBe('success');
    const received = (await balance(bed.fixtures.weth, owner.address)) - before;
    expect(received < BigInt(body['minBuyAmount'] as string)).toBe(true);
  });

  it('faults: no liquidity, HTTP 500, malformed, slow', async () => {
    fake.setMode('no_liquidity');
    expect((await ask(1_000_000n)).body).toMatchObject({ liquidityAvailable: false });
    fake.setMode('http_500');
    expect((await ask(1_000_000n)).status).toBe(500);
    fake.setMode('malformed');
    expect((await ask(1_000_000n)).body['transaction']).toBeUndefined();
    fake.setMode('slow');
    const started = Date.now();
    await ask(1_000_000n);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    fake.setMode('ok');
  });
});
