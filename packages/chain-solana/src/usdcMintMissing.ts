import type { LegBuild, Unavailable } from '@yieldrouter/schemas';

/** A Solana leg that needs USDC when no valid USDC mint is configured: blocked, never guessed. */
export const USDC_MINT_MISSING_BUILD: LegBuild = {
  status: 'blocked',
  blockers: [
    {
      code: 'asset_not_configured',
      message: 'The asset is not configured on this chain. No USDC mint on Solana.',
      field: 'usdcMint',
    },
  ],
};

/** A read of USDC movements when no valid USDC mint is configured. */
export function usdcMintMissing(what: string): Unavailable {
  return {
    status: 'unavailable',
    reason: 'asset_not_configured',
    detail: `${what}: no valid USDC mint is configured for Solana`,
  };
}
