import { deployEvmFixtures, startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { AssetBalance } from '@yieldrouter/schemas';
import { createEvmAdapter } from './createEvmAdapter';

const FRESH = '0x000000000000000000000000000000000000bEEF';
let anvil: AnvilInstance;
let fixtures: EvmFixtures;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 });
  fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: 8453 });
});
afterAll(() => anvil?.stop());

function adapterAt(rpcUrl: string | undefined, timeoutMs = 2_000) {
  return createEvmAdapter({
    chain: 'base',
    rpcUrl,
    timeoutMs,
    usdcAddress: fixtures.usdc,
    registryAddress: fixtures.registry,
  });
}

function reasons(legs: readonly AssetBalance[]) {
  return legs.map((leg) => (leg.status === 'ok' ? 'ok' : leg.reason));
}

describe('readBalances on anvil', () => {
  it('reads ETH in wei and minted USDC in micros, exactly', async () => {
    const owner = anvil.accounts[3]?.address;
    if (!owner) throw new Error('no anvil account 3');
    await fixtures.mintUsdc(owner, 12_345_678n);
    expect(await adapterAt(anvil.rpcUrl).readBalances(owner.toLowerCase())).toEqual([
      { asset: 'ETH', decimals: 18, status: 'ok', amount: 10_000n * 10n ** 18n },
      { asset: 'USDC', decimals: 6, status: 'ok', amount: 12_345_678n },
    ]);
  });

  it('reads zero for an empty wallet (a real zero from the chain)', async () => {
    expect(reasons(await adapterAt(anvil.rpcUrl).readBalances(FRESH))).toEqual(['ok', 'ok']);
  });

  it('throws InvalidChainInputError(address) before any call', async () => {
    for (const bad of ['0x12', 'hello', FRESH.replace('bEEF', 'BeeF'), '']) {
      await expect(adapterAt(anvil.rpcUrl).readBalances(bad)).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'address',
      });
    }
    await expect(adapterAt(anvil.rpcUrl).readBalances('0x12')).rejects.toThrow(
      InvalidChainInputError,
    );
  });

  it('an unset USDC address is asset_not_configured; ETH is still read', async () => {
    const adapter = createEvmAdapter({
      chain: 'base',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: undefined,
      registryAddress: undefined,
    });
    expect(reasons(await adapter.readBalances(FRESH))).toEqual(['ok', 'asset_not_configured']);
  });

  it('a USDC address without a contract is an rpc_error naming the cause', async () => {
    const adapter = createEvmAdapter({
      chain: 'base',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: FRESH,
      registryAddress: undefined,
    });
    const [, usdc] = await adapter.readBalances(FRESH);
    expect(usdc).toMatchObject({ status: 'unavailable', reason: 'rpc_error' });
    expect(usdc?.status === 'unavailable' && usdc.detail).toMatch(/no data returned/);
  });
});

describe('readBalances fails closed', () => {
  let fault: FaultEndpoint | undefined;
  afterEach(async () => {
    await fault?.close();
    fault = undefined;
  });

  it('no RPC URL: both legs rpc_not_configured', async () => {
    expect(reasons(await adapterAt(undefined).readBalances(FRESH))).toEqual([
      'rpc_not_configured',
      'rpc_not_configured',
    ]);
  });

  it('RPC down (closed port): both legs rpc_error, no URL in the detail', async () => {
    const url = await closedPortUrl();
    const legs = await adapterAt(url).readBalances(FRESH);
    expect(reasons(legs)).toEqual(['rpc_error', 'rpc_error']);
    for (const leg of legs) {
      expect(leg).not.toHaveProperty('amount');
      expect(leg.status === 'unavailable' && leg.detail).not.toContain('127.0.0.1');
    }
    expect(legs[0]?.status === 'unavailable' && legs[0].detail).toMatch(/ECONNREFUSED/);
  });

  it('RPC silent: both legs rpc_timeout within the timeout', async () => {
    fault = await startSilentServer();
    const started = performance.now();
    const legs = await adapterAt(fault.url, 300).readBalances(FRESH);
    const elapsed = performance.now() - started;
    expect(reasons(legs)).toEqual(['rpc_timeout', 'rpc_timeout']);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(10_000); // the node never answers: the timeout ended it
  });

  it.each([
    ['not JSON', '<html>502 Bad Gateway</html>'],
    ['JSON without a result', '{"jsonrpc":"2.0","id":1,"unexpected":true}'],
    ['a result of the wrong type', '{"jsonrpc":"2.0","id":1,"result":{"balance":5}}'],
    ['a result that is not hex', '{"jsonrpc":"2.0","id":1,"result":"12.5"}'],
  ])('RPC garbage (%s): both legs rpc_bad_response', async (_label, body) => {
    fault = await startGarbageServer(body);
    expect(reasons(await adapterAt(fault.url).readBalances(FRESH))).toEqual([
      'rpc_bad_response',
      'rpc_bad_response',
    ]);
  });

  it('an HTTP error status is rpc_error', async () => {
    fault = await startGarbageServer('{"message":"upstream down"}', 502);
    expect(reasons(await adapterAt(fault.url).readBalances(FRESH))).toEqual([
      'rpc_error',
      'rpc_error',
    ]);
  });

  it('a JSON-RPC error from the node is rpc_error', async () => {
    fault = await startGarbageServer(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"rate limited"}}',
    );
    const legs = await adapterAt(fault.url).readBalances(FRESH);
    expect(reasons(legs)).toEqual(['rpc_error', 'rpc_error']);
    expect(legs[0]?.status === 'unavailable' && legs[0].detail).toMatch(/rate limited/);
  });
});
