import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { suiConfig, USDC } from './testFixtures';

// Deep imports: the chain-beds index also loads the EVM and Solana beds, which these tests skip.

const OWNER = `0x${'1a'.repeat(32)}`;

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

describe('normalizeAddress', () => {
  const adapter = createSuiAdapter(suiConfig());
  it('pads and lowercases 0x + 1..64 hex', () => {
    expect(adapter.normalizeAddress('0x2')).toBe(`0x${'0'.repeat(63)}2`);
    expect(adapter.normalizeAddress(`0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
  });
  it.each([
    '',
    '0x',
    '2',
    `0x${'a'.repeat(65)}`,
    '0xzz',
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  ])('refuses %p', (value) => expect(adapter.normalizeAddress(value)).toBeUndefined());
});

describe('readBalances through the JSON-RPC client', () => {
  it('reads SUI and USDC exactly, as bigint', async () => {
    fake.setBalance(OWNER, '0x2::sui::SUI', 98_765_432_109_876_543_210n);
    fake.setBalance(OWNER, USDC, 9_007_199_254_740_993n);
    const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
    expect(await adapter.readBalances(OWNER.toUpperCase().replace('0X', '0x'))).toEqual([
      { asset: 'SUI', decimals: 9, status: 'ok', amount: 98_765_432_109_876_543_210n },
      { asset: 'USDC', decimals: 6, status: 'ok', amount: 9_007_199_254_740_993n },
    ]);
  });

  it('refuses a malformed address before any call', async () => {
    const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
    const before = fake.calls().length;
    await expect(adapter.readBalances('alice')).rejects.toThrow(InvalidChainInputError);
    await expect(adapter.readBalances('alice')).rejects.toMatchObject({ field: 'address' });
    expect(fake.calls()).toHaveLength(before);
  });

  it('reports legs as unavailable when no RPC or no USDC type is configured', async () => {
    const noRpc = createSuiAdapter(suiConfig());
    const legs = await noRpc.readBalances(OWNER);
    expect(legs.map((leg) => leg.status === 'unavailable' && leg.reason)).toEqual([
      'rpc_not_configured',
      'rpc_not_configured',
    ]);
    const noUsdc = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, usdcCoinType: undefined }));
    const [sui, usdc] = await noUsdc.readBalances(OWNER);
    expect(sui).toMatchObject({ status: 'ok' });
    expect(usdc).toMatchObject({ status: 'unavailable', reason: 'asset_not_configured' });
  });

  it('reports rpc_error when the RPC port is closed', async () => {
    const adapter = createSuiAdapter(suiConfig({ rpcUrl: await closedPortUrl() }));
    const legs = await adapter.readBalances(OWNER);
    for (const leg of legs)
      expect(leg).toMatchObject({ status: 'unavailable', reason: 'rpc_error' });
  });

  it('gives up on a silent RPC within the timeout (rpc_timeout)', async () => {
    const silent = await startSilentServer();
    try {
      const adapter = createSuiAdapter(suiConfig({ rpcUrl: silent.url, timeoutMs: 300 }));
      const started = Date.now();
      const legs = await adapter.readBalances(OWNER);
      expect(Date.now() - started).toBeLessThan(10_000);
      for (const leg of legs) {
        expect(leg).toMatchObject({ status: 'unavailable', reason: 'rpc_timeout' });
      }
    } finally {
      await silent.close();
    }
  });

  it.each([
    ['a body that is not JSON', '<html>502 Bad Gateway</html>'],
    ['JSON that is not a JSON-RPC envelope', '{"hello":"world"}'],
    ['a JSON array', '[1,2,3]'],
    ['a result of the wrong shape', '{"jsonrpc":"2.0","id":1,"result":{"totalBalance":12}}'],
    ['a negative balance', '{"jsonrpc":"2.0","id":1,"result":{"totalBalance":"-5"}}'],
    ['a null result', '{"jsonrpc":"2.0","id":1,"result":null}'],
  ])('reports rpc_bad_response for %s', async (_label, body) => {
    const garbage = await startGarbageServer(body);
    try {
      const adapter = createSuiAdapter(suiConfig({ rpcUrl: garbage.url }));
      for (const leg of await adapter.readBalances(OWNER)) {
        expect(leg).toMatchObject({ status: 'unavailable', reason: 'rpc_bad_response' });
      }
    } finally {
      await garbage.close();
    }
  });

  it('reports rpc_error for an HTTP error status', async () => {
    const failing = await startGarbageServer('{"error":"overloaded"}', 503);
    try {
      const adapter = createSuiAdapter(suiConfig({ rpcUrl: failing.url }));
      for (const leg of await adapter.readBalances(OWNER)) {
        expect(leg).toMatchObject({ status: 'unavailable', reason: 'rpc_error' });
      }
    } finally {
      await failing.close();
    }
  });
});

describe('configuration', () => {
  it('refuses a malformed USDC type and timeouts at construction', () => {
    expect(() => createSuiAdapter(suiConfig({ usdcCoinType: 'usdc' }))).toThrow(/usdcCoinType/);
    expect(() => createSuiAdapter(suiConfig({ timeoutMs: 0 }))).toThrow(/timeoutMs/);
  });
});
