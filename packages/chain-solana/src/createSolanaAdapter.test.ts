import { Keypair } from '@solana/web3.js';
import { NATIVE_USDC } from '@yieldrouter/schemas';
import { createSolanaAdapter } from './createSolanaAdapter';

const config = {
  rpcUrl: undefined,
  timeoutMs: 1000,
  broadcastEnabled: false,
  usdcMint: NATIVE_USDC.solana,
  programId: undefined,
  yieldRouter: undefined,
  adapterRegistry: undefined,
};

describe('createSolanaAdapter', () => {
  it('is the solana adapter and normalizes base58 32-byte keys only', () => {
    const adapter = createSolanaAdapter(config);
    const key = Keypair.generate().publicKey.toBase58();
    expect(adapter.chain).toBe('solana');
    expect(adapter.normalizeAddress(key)).toBe(key);
    expect(adapter.normalizeAddress(NATIVE_USDC.solana)).toBe(NATIVE_USDC.solana);
    for (const bad of ['', ' '.concat(key), NATIVE_USDC.base, '1'.repeat(45), 'O'.repeat(44)]) {
      expect(adapter.normalizeAddress(bad)).toBeUndefined();
    }
  });

  it('treats an RPC URL that is not http(s) as not configured', async () => {
    const adapter = createSolanaAdapter({ ...config, rpcUrl: 'ftp://example.invalid' });
    const legs = await adapter.readBalances(Keypair.generate().publicKey.toBase58());
    expect(legs.map((leg) => (leg.status === 'ok' ? 'ok' : leg.reason))).toEqual([
      'rpc_not_configured',
      'rpc_not_configured',
    ]);
  });
});
