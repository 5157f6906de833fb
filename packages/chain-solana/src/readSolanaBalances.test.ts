import { Keypair } from '@solana/web3.js';
import { closedPortUrl, startGarbageServer, startSilentServer } from '@yieldrouter/chain-beds';
import { InvalidChainInputError, NATIVE_USDC } from '@yieldrouter/schemas';
import type { AssetBalance } from '@yieldrouter/schemas';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
beforeAll(async () => {
  bed = await startRouterBed();
});
afterAll(() => bed.stop());

const reasons = (legs: readonly AssetBalance[]) =>
  legs.map((leg) => (leg.status === 'ok' ? 'ok' : leg.reason));

describe('readBalances', () => {
  it('reads SOL and the minted USDC exactly, summing every USDC account', async () => {
    expect(bed.usdcMint).toBe(NATIVE_USDC.solana);
    const owner = bed.createFundedKeypair(1_234_567_891n);
    bed.mintUsdc(owner.publicKey, 7_000_001n);
    bed.mintUsdc(owner.publicKey, 2n);

    const legs = await bedAdapter(bed).readBalances(owner.publicKey.toBase58());
    expect(legs).toEqual([
      { asset: 'SOL', decimals: 9, status: 'ok', amount: 1_234_567_891n },
      { asset: 'USDC', decimals: 6, status: 'ok', amount: 7_000_003n },
    ]);
  });

  it('reads 0 for a wallet the chain has never seen', async () => {
    const legs = await bedAdapter(bed).readBalances(Keypair.generate().publicKey.toBase58());
    expect(legs.map((leg) => (leg.status === 'ok' ? leg.amount : leg.reason))).toEqual([0n, 0n]);
  });

  it('throws InvalidChainInputError for anything but a base58 32-byte key', async () => {
    const adapter = bedAdapter(bed);
    for (const address of ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'abc', '1'.repeat(45)]) {
      await expect(adapter.readBalances(address)).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'address',
      });
    }
    await expect(adapter.readBalances('O0Il')).rejects.toBeInstanceOf(InvalidChainInputError);
  });

  it('marks USDC asset_not_configured when no mint is configured, SOL still read', async () => {
    const owner = bed.createFundedKeypair(1_000_000_000n);
    const legs = await bedAdapter(bed, { usdcMint: undefined }).readBalances(
      owner.publicKey.toBase58(),
    );
    expect(reasons(legs)).toEqual(['ok', 'asset_not_configured']);
  });

  it('marks both legs rpc_not_configured without an RPC URL', async () => {
    const legs = await bedAdapter(bed, { rpcUrl: undefined }).readBalances(bed.usdcMint);
    expect(reasons(legs)).toEqual(['rpc_not_configured', 'rpc_not_configured']);
  });

  it('marks both legs rpc_error when the RPC is down', async () => {
    const rpcUrl = await closedPortUrl();
    const legs = await bedAdapter(bed, { rpcUrl }).readBalances(bed.usdcMint);
    expect(reasons(legs)).toEqual(['rpc_error', 'rpc_error']);
    expect(legs[0]).toMatchObject({ detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('marks both legs rpc_timeout within the timeout when the RPC never answers', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const legs = await bedAdapter(bed, { rpcUrl: silent.url, timeoutMs: 300 }).readBalances(
        bed.usdcMint,
      );
      expect(reasons(legs)).toEqual(['rpc_timeout', 'rpc_timeout']);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await silent.close();
    }
  });

  it('marks both legs rpc_bad_response for garbage and for JSON of the wrong shape', async () => {
    const html = await startGarbageServer();
    const wrongShape = await startGarbageServer(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { value: 'lots' } }),
    );
    try {
      for (const endpoint of [html, wrongShape]) {
        const legs = await bedAdapter(bed, { rpcUrl: endpoint.url }).readBalances(bed.usdcMint);
        expect(reasons(legs)).toEqual(['rpc_bad_response', 'rpc_bad_response']);
      }
    } finally {
      await html.close();
      await wrongShape.close();
    }
  });

  it('marks both legs rpc_error on an HTTP 500', async () => {
    const failing = await startGarbageServer('upstream exploded', 500);
    try {
      const legs = await bedAdapter(bed, { rpcUrl: failing.url }).readBalances(bed.usdcMint);
      expect(reasons(legs)).toEqual(['rpc_error', 'rpc_error']);
    } finally {
      await failing.close();
    }
  });
});
