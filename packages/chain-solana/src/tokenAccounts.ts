import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';

/**
 * The associated token account of `owner` for `mint` (classic SPL Token program). Off-curve
 * owners are allowed: the router (a program account) and multisig vaults hold tokens too.
 */
export function associatedTokenAccount(owner: PublicKey, mint: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true);
}

/** The router's USDC vault: the associated token account of the `yieldRouter` account. */
export function routerVault(yieldRouter: PublicKey, usdcMint: PublicKey): PublicKey {
  return associatedTokenAccount(yieldRouter, usdcMint);
}
