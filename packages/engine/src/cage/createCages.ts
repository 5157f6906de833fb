import { createEvmCage } from '@yieldrouter/chain-evm';
import type { EvmCage } from '@yieldrouter/chain-evm';
import type { CageChain } from '@yieldrouter/schemas';
import type { ChainsConfig } from '../chains/chainsConfig';

/** The cage on each Map chain. */
export type Cages = Readonly<Record<CageChain, EvmCage>>;

export interface CreateCagesParameters {
  readonly chains: ChainsConfig;
  readonly cages: { readonly base: string | undefined; readonly arbitrum: string | undefined };
}

/** Builds both cages from configuration. No RPC call happens here. */
export function createCages({ chains, cages }: CreateCagesParameters): Cages {
  const cage = (chain: CageChain) =>
    createEvmCage({
      chain,
      rpcUrl: chains[chain].rpcUrl,
      timeoutMs: chains.timeoutMs,
      usdcAddress: chains[chain].usdc,
      registryAddress: undefined,
      cageAddress: cages[chain],
    });
  return { base: cage('base'), arbitrum: cage('arbitrum') };
}
