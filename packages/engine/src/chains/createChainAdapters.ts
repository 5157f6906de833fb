import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { createSolanaAdapter } from '@yieldrouter/chain-solana';
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import type { ChainSwitches, OnChainIds } from '@yieldrouter/schemas';
import type { ChainAdapters, ChainsConfig } from './chainsConfig';

export interface CreateChainAdaptersParameters {
  readonly chains: ChainsConfig;
  readonly ids: OnChainIds;
  readonly switches: ChainSwitches;
}

/** Builds the four adapters from configuration. No RPC call happens here. */
export function createChainAdapters({
  chains,
  ids,
  switches,
}: CreateChainAdaptersParameters): ChainAdapters {
  const timeoutMs = chains.timeoutMs;
  return {
    sui: createSuiAdapter({
      rpcUrl: chains.sui.rpcUrl,
      network: chains.sui.network,
      timeoutMs,
      broadcastEnabled: switches.sui.broadcastEnabled,
      // Our Sui package ids (ids.sui) are served by /svc/packages only: no leg calls it.
      usdcCoinType: chains.sui.usdc,
    }),
    solana: createSolanaAdapter({
      rpcUrl: chains.solana.rpcUrl,
      timeoutMs,
      broadcastEnabled: switches.solana.broadcastEnabled,
      usdcMint: chains.solana.usdc,
      programId: ids.solana.programId,
      yieldRouter: ids.solana.yieldRouter,
      adapterRegistry: ids.solana.adapterRegistry,
    }),
    base: createEvmAdapter({
      chain: 'base',
      rpcUrl: chains.base.rpcUrl,
      timeoutMs,
      usdcAddress: chains.base.usdc,
      registryAddress: ids.base.registryAddress,
    }),
    arbitrum: createEvmAdapter({
      chain: 'arbitrum',
      rpcUrl: chains.arbitrum.rpcUrl,
      timeoutMs,
      usdcAddress: chains.arbitrum.usdc,
      registryAddress: ids.arbitrum.registryAddress,
    }),
  };
}
