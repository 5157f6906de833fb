import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { SwapReceipt, SwapReceiptQuery } from '@yieldrouter/schemas';
import { describeRpcFailure } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readPlannedSolanaTransaction } from './readPlannedSolanaTransaction';
import type { SolanaContext } from './solanaContext';
import { tokenBalanceDelta } from './tokenBalanceDelta';

/**
 * What the chain says about a swap leg (pending, mismatch and failed as every leg, see
 * `readPlannedSolanaTransaction`), checked before any amount is believed: the fee payer is the
 * owner, the memo names the plan, and a top-level instruction calls the quoted swap program
 * (`to`). Amounts are token balance deltas (pre/postTokenBalances): the owner's output-token
 * gain is the amount out (never the quote), the owner's input-token loss the amount in, the
 * fee recipient's input-token gain the fee paid. Failed, or a fill below `minAmountOutMicros`
 * → `failed`; else `confirmed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId, program or mint.
 * @example
 * await readSolanaSwapReceipt(context, { txId, planId, owner, to: jupiterProgram, inputToken,
 *   outputToken, minAmountOutMicros, feeRecipient })
 */
export async function readSolanaSwapReceipt(
  context: SolanaContext,
  query: SwapReceiptQuery,
): Promise<SwapReceipt> {
  const program = parsePublicKey(query.to);
  const inputMint = parsePublicKey(query.inputToken);
  const outputMint = parsePublicKey(query.outputToken);
  const feeRecipient = query.feeRecipient === null ? null : parsePublicKey(query.feeRecipient);
  if (!program || !inputMint || !outputMint || feeRecipient === undefined) {
    throw new InvalidChainInputError(
      'to',
      'to, inputToken, outputToken, feeRecipient: must be base58 Solana public keys',
    );
  }
  const read = await readPlannedSolanaTransaction(context, query);
  if (read.status !== 'ran') return read;
  const { meta, keys, owner } = read;
  if (!read.programs.some((called) => called.equals(program))) {
    return {
      status: 'mismatch',
      txId: query.txId,
      reason: `the transaction does not call the quoted swap program ${program.toBase58()}`,
    };
  }
  try {
    const amountOutMicros = tokenBalanceDelta(meta, keys, { mint: outputMint, owner });
    const amountInMicros = -tokenBalanceDelta(meta, keys, { mint: inputMint, owner });
    const feePaidMicros = feeRecipient
      ? tokenBalanceDelta(meta, keys, { mint: inputMint, owner: feeRecipient })
      : 0n;
    if (amountOutMicros < query.minAmountOutMicros) {
      return {
        status: 'failed',
        txId: query.txId,
        reason: `filled ${amountOutMicros} below the minimum ${query.minAmountOutMicros}`,
      };
    }
    return {
      status: 'confirmed',
      txId: query.txId,
      amountInMicros,
      amountOutMicros,
      feePaidMicros,
      block: String(read.slot),
    };
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
}
