import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import { withdrawInstruction } from './instructions/routerInstructions';
import { buildSolanaVenueLeg } from './buildSolanaVenueLeg';
import { routerVaultKeys } from './legKeys';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount, routerVault } from './tokenAccounts';
import { validateLegRequest } from './validateLegRequest';

/**
 * An unsigned withdrawal leg: create the owner's USDC account (idempotent) + the router
 * program's `withdraw` (from the router) or `withdraw_from_venue` (from a `router-adapter`
 * venue) + memo `svc:<planId>`. Both need the router program id (layout: docs/chains.md).
 *
 * @example
 * const build = await buildSolanaWithdraw(context, { planId, owner, amountMicros: 1_000_000n, target: { kind: 'router' } });
 */
export async function buildSolanaWithdraw(
  context: SolanaContext,
  request: LegRequest,
): Promise<LegBuild> {
  const owner = validateLegRequest(request);
  const { planId, amountMicros, target } = request;
  const amount = `${formatUnits(amountMicros, USDC_DECIMALS)} USDC`;
  if (target.kind === 'router') {
    const resolved = routerVaultKeys(context.config);
    if (resolved.status === 'blocked') return resolved;
    const { programId, yieldRouter, usdcMint } = resolved.keys;
    const ownerUsdc = associatedTokenAccount(owner, usdcMint);
    return prepareSolanaLeg(context, {
      owner,
      action: 'withdraw',
      planId,
      amountMicros,
      summary: `Withdraw ${amount} from the Yield Router to ${owner.toBase58()} (${planId})`,
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(owner, ownerUsdc, owner, usdcMint),
        withdrawInstruction(
          {
            programId,
            owner,
            yieldRouter,
            routerVault: routerVault(yieldRouter, usdcMint),
            ownerUsdc,
            usdcMint,
          },
          { amountMicros, planId },
        ),
        planMemoInstruction(planId),
      ],
    });
  }
  return buildSolanaVenueLeg(context, {
    action: 'withdraw',
    owner,
    planId,
    amountMicros,
    venue: target.venue,
  });
}
