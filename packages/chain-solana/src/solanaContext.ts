import type { PublicKey } from '@solana/web3.js';
import type { SolanaConnectionResult } from './createSolanaConnection';
import { createSolanaConnection } from './createSolanaConnection';
import { parsePublicKey } from './parsePublicKey';
import type { SolanaAdapterConfig } from './solanaAdapterConfig';

/** What every adapter action works from: the parsed configuration and the one connection. */
export interface SolanaContext {
  readonly config: SolanaAdapterConfig;
  readonly rpc: SolanaConnectionResult;
  /** The configured USDC mint, when it is a valid key. */
  readonly usdcMint: PublicKey | undefined;
}

/** Parses the configuration once. No RPC call. */
export function createSolanaContext(config: SolanaAdapterConfig): SolanaContext {
  return {
    config,
    rpc: createSolanaConnection(config.rpcUrl, config.timeoutMs),
    usdcMint: config.usdcMint === undefined ? undefined : parsePublicKey(config.usdcMint),
  };
}
