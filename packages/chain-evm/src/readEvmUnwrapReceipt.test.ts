import { anvilAccounts, anvilChain, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseAbi } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createEvmAdapter } from './createEvmAdapter';

// An unwrap leg settles from its receipt: what the wrapped native token's logs show the owner
// unwrapped, only for the plan's own transaction.

const account = anvilAccounts()[8];
if (!account) throw new Error('no anvil account');
const owner = account;
let bed: EvmBed;

beforeAll(async () => {
  bed = await startEvmBed({ chainId: 8453 });
}, 60_000);
afterAll(() => bed.stop());

const adapter = () =>
  createEvmAdapter({
    chain: 'base',
    rpcUrl: bed.anvil.rpcUrl,
    timeoutMs: 2_000,
    usdcAddress: undefined,
    registryAddress: undefined,
  });

async function send(to: Address, data: Hex, value = 0n): Promise<Hex> {
  const chain = anvilChain(8453, bed.anvil.rpcUrl);
  const transport = http(bed.anvil.rpcUrl);
  const client = createWalletClient({
    account: privateKeyToAccount(owner.privateKey),
    chain,
    transport,
  });
  const hash = await client.sendTransaction({ to, data, value, gas: 500_000n });
  await createPublicClient({ chain, transport }).waitForTransactionReceipt({
    hash,
    pollingInterval: 20,
  });
  return hash;
}

/** The owner's wrap or unwrap leg of `amount` wei for a new plan, as the adapter builds it. */
function legOf(action: 'wrap' | 'unwrap', amount: bigint) {
  const planId = newPlanId();
  const request = { planId, owner: owner.address, wrappedNative: bed.fixtures.weth, amount };
  const build = action === 'wrap' ? adapter().buildWrap : adapter().buildUnwrap;
  const leg = build({ ...request, summary: action });
  return { planId, leg, tx: leg.payload.transaction as { to: Address; data: Hex; value: string } };
}

describe('readEvmUnwrapReceipt on anvil', () => {
  it("reads what the owner unwrapped; another plan's transaction is a mismatch", async () => {
    const weth = bed.fixtures.weth;
    const deposit = encodeFunctionData({
      abi: parseAbi(['function deposit()']),
      functionName: 'deposit',
    });
    await send(weth, deposit, 1_000n);
    const { planId, tx } = legOf('unwrap', 400n);
    const txId = await send(tx.to, tx.data);
    const query = { txId, planId, owner: owner.address, wrappedNative: weth };
    expect(await adapter().readUnwrapReceipt(query)).toMatchObject({
      status: 'confirmed',
      txId,
      amount: 400n,
    });
    expect(await adapter().readUnwrapReceipt({ ...query, planId: newPlanId() })).toMatchObject({
      status: 'mismatch',
    });
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await adapter().readUnwrapReceipt({ ...query, txId: unknown })).toMatchObject({
      status: 'pending',
    });
  });

  it('a wrap leg (a swap from ETH): deposit() paying the amount; its receipt what was wrapped', async () => {
    const weth = bed.fixtures.weth;
    const { planId, leg, tx } = legOf('wrap', 700n);
    // WETH9's deposit() (the plan tag appended), paying the amount.
    const deposit = encodeFunctionData({
      abi: parseAbi(['function deposit() payable']),
      functionName: 'deposit',
    });
    expect(tx).toMatchObject({ to: weth, value: '700' });
    expect(tx.data.startsWith(deposit)).toBe(true);
    expect(leg).toMatchObject({ action: 'wrap', settles: true, amountMicros: 700n });
    const txId = await send(tx.to, tx.data, BigInt(tx.value));
    const query = { txId, planId, owner: owner.address, wrappedNative: weth };
    expect(await adapter().readWrapReceipt(query)).toMatchObject({
      status: 'confirmed',
      txId,
      amount: 700n,
    });
    // The same transaction read as an unwrap moved nothing out: a mismatch.
    expect(await adapter().readUnwrapReceipt(query)).toMatchObject({ status: 'mismatch' });
  });
});
