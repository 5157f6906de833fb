import { NATIVE_MINT } from '@solana/spl-token';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { UnwrapReceipt, UnwrapReceiptQuery } from '@yieldrouter/schemas';
import { describeRpcFailure } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readPlannedSolanaTransaction } from './readPlannedSolanaTransaction';
import type { SolanaContext } from './solanaContext';
import { tokenBalanceDelta } from './tokenBalanceDelta';

/**
 * What the chain says about an unwrap leg (pending, mismatch and failed as every leg, see
 * `readPlannedSolanaTransaction`): `amount` is the wrapped SOL the owner's token accounts lost
 * (pre − postTokenBalances; the closed account is absent afterwards), in lamports. The owner's
 * lamports grow by that plus the closed account's rent, less the transaction fee — the owner's
 * lamport delta + fee − rent; the rent and the fee were the owner's SOL outside the books, so
 * only the unwrapped amount is booked (wrapped SOL → native, 1:1). Nothing unwrapped →
 * `mismatch`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId, or a `wrappedNative`
 *   other than the wrapped SOL mint.
 * @example
 * await readSolanaUnwrapReceipt(context, { txId, planId, owner, wrappedNative: NATIVE_MINT })
 */
export async function readSolanaUnwrapReceipt(
  context: SolanaContext,
  query: UnwrapReceiptQuery,
  /**
   * `wrap` (issue 41): a wrap leg instead: the wrapped SOL the owner's token accounts gained (an
   * account it created counts from zero; its rent, the owner's SOL outside the books, is not
   * booked).
   */
  direction: 'wrap' | 'unwrap' = 'unwrap',
): Promise<UnwrapReceipt> {
  if (!parsePublicKey(query.wrappedNative)?.equals(NATIVE_MINT)) {
    throw new InvalidChainInputError(
      'wrappedNative',
      'wrappedNative: must be the wrapped SOL mint',
    );
  }
  const read = await readPlannedSolanaTransaction(context, query);
  if (read.status !== 'ran') return read;
  try {
    const delta = tokenBalanceDelta(read.meta, read.keys, {
      mint: NATIVE_MINT,
      owner: read.owner,
    });
    const amount = direction === 'wrap' ? delta : -delta;
    if (amount <= 0n) {
      return {
        status: 'mismatch',
        txId: query.txId,
        reason: `the transaction ${direction}ped no wrapped SOL of the owner`,
      };
    }
    return { status: 'confirmed', txId: query.txId, amount, block: String(read.slot) };
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
}
