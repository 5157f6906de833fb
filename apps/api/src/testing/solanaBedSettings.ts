import { Keypair } from '@solana/web3.js';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';

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
