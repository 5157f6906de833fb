import { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';

/** A fresh base58 public key (an id the bed does not need to know). */
export const freshSolanaKey = (): string => Keypair.generate().publicKey.toBase58();

/** API settings pointing Solana at a local bed: its RPC and USDC mint, router ids of our own. */
export function solanaBedSettings(solana: SolanaBed): Record<string, string> {
  return {
    SVC_RPC_TIMEOUT_MS: '3000',
    SVC_SOLANA_RPC_URL: solana.rpcUrl,
    SVC_SOLANA_USDC_MINT: solana.usdcMint,
    SVC_SOLANA_PROGRAM_ID: freshSolanaKey(),
    SVC_SOLANA_YIELD_ROUTER: freshSolanaKey(),
    SVC_SOLANA_ADAPTER_REGISTRY: freshSolanaKey(),
  };
}

/**
 * API settings for our router program deployed on the bed, with Solana execution and broadcast
 * on: the owner's signed legs go through execute, and receipts come from the bed.
 */
export function solanaRouterSettings(
  solana: SolanaBed,
  router: SolanaRouterDeployment,
): Record<string, string> {
  return {
    ...solanaBedSettings(solana),
    SVC_SOLANA_NETWORK: 'localnet',
    SVC_SOLANA_PROGRAM_ID: router.programId,
    SVC_SOLANA_YIELD_ROUTER: router.yieldRouter,
    SVC_SOLANA_ADAPTER_REGISTRY: router.adapterRegistry,
    SVC_SOLANA_UPGRADE_AUTHORITY: router.admin,
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_SOLANA_BROADCAST_ENABLED: 'true',
  };
}
