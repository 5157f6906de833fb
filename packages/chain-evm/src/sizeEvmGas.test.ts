import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import { anvilAccounts, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import { encodeFunctionData, erc20Abi } from 'viem';
import { createEvmAdapter } from './createEvmAdapter';

// Gas sizing asks the node and nothing else: an estimate, the fee, the balance — or a reason.

const owner = anvilAccounts()[7];
const FRIEND = '0x000000000000000000000000000000000000dEaD';
if (!owner) throw new Error('no anvil account');

function adapterAt(rpcUrl: string | undefined, timeoutMs = 2_000) {
  return createEvmAdapter({
    chain: 'base',
    rpcUrl,
    timeoutMs,
    usdcAddress: undefined,
    registryAddress: undefined,
  });
}

const transfer = (to: `0x${string}`, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
const approve = (spender: `0x${string}`, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
const transferFrom = (from: `0x${string}`, to: `0x${string}`, amount: bigint) =>
  encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transferFrom',
    args: [from, to, amount],
  });

describe('sizeEvmGas on anvil', () => {
  let bed: EvmBed;
  beforeAll(async () => {
    bed = await startEvmBed({ chainId: 8453 });
    await bed.fixtures.mintUsdc(owner.address, 10_000_000n);
  }, 60_000);
  afterAll(() => bed.stop());

  it('estimates each call, prices it at the max fee per gas, and reads the balance', async () => {
    const sizing = await adapterAt(bed.anvil.rpcUrl).sizeGas({
      owner: owner.address,
      calls: [
        { to: bed.fixtures.usdc, data: transfer(bed.fixtures.pair, 1n), value: 0n },
        { to: FRIEND, data: '0x', value: 7n },
      ],
    });
    if (sizing.status !== 'ok') throw new Error(`expected a sizing, got ${sizing.status}`);
    // A token transfer (~35–52k) and a plain value transfer (21k).
    const { gasUnits = 0n, feePerGas = 0n } = sizing;
    expect(gasUnits > 50_000n && gasUnits < 100_000n).toBe(true);
    expect(feePerGas > 0n).toBe(true);
    expect(sizing.nativeRequired).toBe(gasUnits * feePerGas + 7n);
    expect(sizing.nativeHeld).toBe(10_000n * 10n ** 18n);
  });

  it('a call the chain says reverts is `reverted`, naming the leg', async () => {
    const sizing = await adapterAt(bed.anvil.rpcUrl).sizeGas({
      owner: owner.address,
      calls: [
        { to: FRIEND, data: '0x', value: 1n },
        { to: bed.fixtures.pair, data: '0x', value: 0n },
      ],
    });
    // The pair has no fallback: the second call reverts alone and after the first.
    expect(sizing).toMatchObject({ status: 'reverted', legIndex: 1 });
  });

  it('sizes a call behind an earlier one (transferFrom after its approve) by simulation', async () => {
    const spender = anvilAccounts()[8]?.address;
    if (!spender) throw new Error('no anvil account');
    const adapter = adapterAt(bed.anvil.rpcUrl);
    const pull = {
      to: bed.fixtures.usdc,
      data: transferFrom(owner.address, spender, 5n),
      value: 0n,
    };
    // Alone, the pull reverts (no allowance)…
    expect(await adapter.sizeGas({ owner: spender, calls: [pull] })).toMatchObject({
      status: 'reverted',
      legIndex: 0,
    });
    // …behind an approve it is sized; calls from another owner than the approver still revert.
    const both = await adapter.sizeGas({
      owner: owner.address,
      calls: [{ to: bed.fixtures.usdc, data: approve(owner.address, 5n), value: 0n }, pull],
    });
    expect(both.status).toBe('ok');
    const wrongOrder = await adapter.sizeGas({
      owner: owner.address,
      calls: [{ to: bed.fixtures.usdc, data: transfer(spender, 10n ** 30n), value: 0n }, pull],
    });
    expect(wrongOrder).toMatchObject({ status: 'reverted', legIndex: 0 });
  });

  it('builds the unwrap leg, tagged with the plan; an amount of 0 is refused', async () => {
    const planId = newPlanId();
    const leg = adapterAt(bed.anvil.rpcUrl).buildUnwrap({
      planId,
      owner: owner.address,
      wrappedNative: bed.fixtures.weth,
      amount: 5n,
      summary: 'Unwrap',
    });
    expect(leg).toMatchObject({
      action: 'unwrap',
      settles: true,
      amountMicros: 5n,
      planId,
      chain: 'base',
    });
    expect(() =>
      adapterAt(undefined).buildUnwrap({
        planId,
        owner: owner.address,
        wrappedNative: bed.fixtures.weth,
        amount: 0n,
        summary: 'Unwrap',
      }),
    ).toThrow('amount');
  });
});

describe('sizeEvmGas fails closed', () => {
  let fault: FaultEndpoint | undefined;
  afterEach(async () => {
    await fault?.close();
    fault = undefined;
  });
  const reasonAt = async (rpcUrl: string | undefined, timeoutMs?: number) => {
    const sizing = await adapterAt(rpcUrl, timeoutMs).sizeGas({
      owner: owner.address,
      calls: [{ to: owner.address, data: '0x', value: 0n }],
    });
    return sizing.status === 'unavailable' ? sizing.reason : sizing.status;
  };

  it('no RPC → rpc_not_configured; down → rpc_error', async () => {
    expect(await reasonAt(undefined)).toBe('rpc_not_configured');
    expect(await reasonAt(await closedPortUrl())).toBe('rpc_error');
  });

  it('silent → rpc_timeout within the timeout; garbage → rpc_bad_response', async () => {
    fault = await startSilentServer();
    const started = performance.now();
    expect(await reasonAt(fault.url, 250)).toBe('rpc_timeout');
    expect(performance.now() - started).toBeLessThan(10_000);
    await fault.close();
    fault = await startGarbageServer();
    expect(await reasonAt(fault.url)).toBe('rpc_bad_response');
  });
});
