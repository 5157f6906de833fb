import {
  NATIVE_MINT,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
} from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegBuild, UnwrapLegRequest } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import { parsePublicKey } from './parsePublicKey';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount } from './tokenAccounts';
import { validateLegRequest } from './validateLegRequest';

/**
 * The owner's unsigned v0 unwrap leg (a gas top-up's last): SPL `CloseAccount` of the owner's
 * wrapped SOL associated token account, its lamports (the wrapped SOL and the account's rent) to
 * the owner, and the memo `svc:<planId>`. Closing unwraps the whole account, so the leg turns at
 * least `amount` (what the swap before it bought) into SOL; its receipt reads what it really
 * unwrapped. Blocked `rpc_unavailable` when the blockhash cannot be read.
 *
 * @throws InvalidChainInputError for a malformed owner or planId, a zero amount, or a
 *   `wrappedNative` other than the wrapped SOL mint.
 * @example
 * await buildSolanaUnwrap(context, { planId, owner, wrappedNative: NATIVE_MINT.toBase58(),
 *   amount: 2_044_280n, summary: 'Unwrap 0.00204428 SOL' });
 */
export async function buildSolanaUnwrap(
  context: SolanaContext,
  request: UnwrapLegRequest,
  /**
   * `wrap` (issue 41): the leg before a swap from SOL instead: the owner's wrapped SOL account
   * created if absent (idempotent), `amount` lamports transferred in, SPL `SyncNative`.
   */
  action: 'wrap' | 'unwrap' = 'unwrap',
): Promise<LegBuild> {
  const owner = validateLegRequest({
    planId: request.planId,
    owner: request.owner,
    amountMicros: request.amount,
    target: { kind: 'router' },
  });
  if (!parsePublicKey(request.wrappedNative)?.equals(NATIVE_MINT)) {
    throw new InvalidChainInputError(
      'wrappedNative',
      'wrappedNative: must be the wrapped SOL mint',
    );
  }
  const account = associatedTokenAccount(owner, NATIVE_MINT);
  return prepareSolanaLeg(context, {
    owner,
    action,
    planId: request.planId,
    amountMicros: request.amount,
    summary: request.summary,
    instructions: [
      ...(action === 'wrap'
        ? [
            createAssociatedTokenAccountIdempotentInstruction(owner, account, owner, NATIVE_MINT),
            SystemProgram.transfer({
              fromPubkey: owner,
              toPubkey: account,
              lamports: request.amount,
            }),
            createSyncNativeInstruction(account),
          ]
        : [createCloseAccountInstruction(account, owner, owner)]),
      planMemoInstruction(request.planId),
    ],
  });
}
