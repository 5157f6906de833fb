import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { createEvmAdapter } from './createEvmAdapter';

// Receipts, position values and the registry fail closed like balances: a reason, never a number.

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const vault: VenueOnChain = {
  venueId: 'v',
  chain: 'base',
  standard: 'erc4626',
  ids: { vault: '0x1111111111111111111111111111111111111111' },
};

function adapterAt(rpcUrl: string | undefined, timeoutMs = 2_000) {
  return createEvmAdapter({
    chain: 'base',
    rpcUrl,
    timeoutMs,
    usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    registryAddress: '0x4444444444444444444444444444444444444444',
  });
}

async function reasonsAt(rpcUrl: string | undefined, timeoutMs?: number) {
  const adapter = adapterAt(rpcUrl, timeoutMs);
  const results = await Promise.all([
    adapter.readReceipt({
      txId: `0x${'cd'.repeat(32)}`,
      planId: newPlanId(),
      owner: OWNER,
      action: 'deposit',
      target: { kind: 'venue', venue: vault },
    }),
    adapter.readPosition(vault, OWNER, 1n),
    adapter.readRegistryFeeConfig(),
  ]);
  return results.map((result) => (result.status === 'unavailable' ? result.reason : result.status));
}

let fault: FaultEndpoint | undefined;
afterEach(async () => {
  await fault?.close();
  fault = undefined;
});

describe('reads fail closed', () => {
  it('no RPC URL → rpc_not_configured', async () => {
    expect(await reasonsAt(undefined)).toEqual(Array(3).fill('rpc_not_configured'));
  });

  it('RPC down → rpc_error', async () => {
    expect(await reasonsAt(await closedPortUrl())).toEqual(Array(3).fill('rpc_error'));
  });

  it('RPC silent → rpc_timeout within the timeout', async () => {
    fault = await startSilentServer();
    const started = performance.now();
    expect(await reasonsAt(fault.url, 250)).toEqual(Array(3).fill('rpc_timeout'));
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('RPC garbage → rpc_bad_response', async () => {
    fault = await startGarbageServer();
    expect(await reasonsAt(fault.url)).toEqual(Array(3).fill('rpc_bad_response'));
  });

  it('a receipt of the wrong shape → rpc_bad_response', async () => {
    fault = await startGarbageServer('{"jsonrpc":"2.0","id":1,"result":{"status":"0x1"}}');
    const [receipt] = await reasonsAt(fault.url);
    expect(receipt).toBe('rpc_bad_response');
  });
});
