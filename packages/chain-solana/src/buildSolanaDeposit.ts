import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import { depositInstruction } from './instructions/routerInstructions';
import { buildSolanaVenueLeg } from './buildSolanaVenueLeg';
import { routerVaultKeys } from './legKeys';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount, routerVault } from './tokenAccounts';
import { validateLegRequest } from './validateLegRequest';

/**
 * An unsigned deposit leg (v0 transaction, fee payer = owner, memo `svc:<planId>`):
 * - into the router: create the router vault (idempotent) + the router program's `deposit`
 *   (USDC into the vault, credited to the owner's position PDA) + memo;
 * - into a `router-adapter` venue: create the owner's receipt account (idempotent) + the router
 *   program's `deposit_to_venue` + memo.
 * Layouts: docs/chains.md, docs/venues/solana.md. Missing ids block the leg; bad input throws `InvalidChainInputError`.
 *
 * @example
 * const build = await buildSolanaDeposit(context, { planId, owner, amountMicros: 5_000_000n, target: { kind: 'router' } });
 */
export async function buildSolanaDeposit(
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
    const vault = routerVault(yieldRouter, usdcMint);
    return prepareSolanaLeg(context, {
      owner,
      action: 'deposit',
      planId,
      amountMicros,
      summary: `Deposit ${amount} from ${owner.toBase58()} into the Yield Router (${planId})`,
      instructions: [
        // The program refuses a vault that is not a token account yet; whoever deposits first on
        // a cluster where the operator has not created it pays its rent.
        createAssociatedTokenAccountIdempotentInstruction(owner, vault, yieldRouter, usdcMint),
        depositInstruction(
          {
            programId,
            owner,
            yieldRouter,
            routerVault: vault,
            ownerUsdc: associatedTokenAccount(owner, usdcMint),
            usdcMint,
          },
          { amountMicros, planId },
        ),
        planMemoInstruction(planId),
      ],
    });
  }
  return buildSolanaVenueLeg(context, {
    action: 'deposit',
    owner,
    planId,
    amountMicros,
    venue: target.venue,
  });
}
