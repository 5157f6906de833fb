import { defineChain } from 'viem';
import type { Chain } from 'viem';

/**
 * A viem chain for a bed node: the given chain id (8453 impersonates Base), the bed's RPC URL.
 *
 * @example
 * createWalletClient({ chain: anvilChain(8453, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
 */
export function anvilChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `Local EVM bed (${chainId})`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  });
}
