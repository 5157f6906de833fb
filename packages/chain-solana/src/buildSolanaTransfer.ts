import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from '@solana/spl-token';
import { InvalidChainInputError, USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, TransferLegRequest } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import { parsePublicKey } from './parsePublicKey';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount } from './tokenAccounts';
import { validateLegRequest } from './validateLegRequest';
import { USDC_MINT_MISSING_BUILD } from './usdcMintMissing';

/**
 * An unsigned transfer leg: create the recipient's USDC account (idempotent, the owner pays the
 * rent) + SPL `TransferChecked` of `amountMicros` USDC from the owner's account + memo
 * `svc:<planId>`. No USDC mint configured → blocked `asset_not_configured`.
 *
 * @example
 * const build = await buildSolanaTransfer(context, { planId, owner, recipient, amountMicros: 1_250_000n });
 */
export async function buildSolanaTransfer(
  context: SolanaContext,
  request: TransferLegRequest,
): Promise<LegBuild> {
  const owner = validateLegRequest({ ...request, target: { kind: 'router' } });
  const recipient = parsePublicKey(request.recipient);
  if (!recipient) {
    throw new InvalidChainInputError('recipient', 'recipient: not a base58 Solana public key');
  }
  const mint = context.usdcMint;
  if (!mint) {
    return USDC_MINT_MISSING_BUILD;
  }
  const { planId, amountMicros } = request;
  const recipientUsdc = associatedTokenAccount(recipient, mint);
  return prepareSolanaLeg(context, {
    owner,
    action: 'transfer',
    planId,
    amountMicros,
    summary: `Send ${formatUnits(amountMicros, USDC_DECIMALS)} USDC to ${recipient.toBase58()} (${planId})`,
    instructions: [
      createAssociatedTokenAccountIdempotentInstruction(owner, recipientUsdc, recipient, mint),
      createTransferCheckedInstruction(
        associatedTokenAccount(owner, mint),
        mint,
        recipientUsdc,
        owner,
        amountMicros,
        USDC_DECIMALS,
      ),
      planMemoInstruction(planId),
    ],
  });
}
