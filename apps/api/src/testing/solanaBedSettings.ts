import { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';

/** A fresh base58 public key (an id the bed does not need to know). */
export const freshSolanaKey = (): string => Keypair.generate().publicKey.toBase58();

/**
 * API settings pointing Solana at a local bed: its RPC and USDC mint, and our router program
 * deployed there (`deployYieldRouter`), so the route and withdraw legs the API prepares run the
 * program's `deposit` / `withdraw`.
 */
export function solanaBedSettings(
  solana: SolanaBed,
  router: SolanaRouterDeployment,
): Record<string, string> {
  return {
    SVC_RPC_TIMEOUT_MS: '3000',
    SVC_SOLANA_RPC_URL: solana.rpcUrl,
    SVC_SOLANA_USDC_MINT: solana.usdcMint,
    SVC_SOLANA_PROGRAM_ID: router.programId,
    SVC_SOLANA_YIELD_ROUTER: router.yieldRouter,
    SVC_SOLANA_ADAPTER_REGISTRY: router.adapterRegistry,
    SVC_SOLANA_TREASURY: router.treasury,
  };
}
