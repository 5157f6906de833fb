import { InvalidChainInputError, USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { Receipt, TransferReceiptQuery } from '@yieldrouter/schemas';
import { describeRpcFailure } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readPlannedSolanaTransaction } from './readPlannedSolanaTransaction';
import type { SolanaContext } from './solanaContext';
import { tokenBalanceDelta } from './tokenBalanceDelta';

/**
 * What the chain says about a transfer leg (pending, mismatch and failed as every leg, see
 * `readPlannedSolanaTransaction`): the amount is what the recipient's USDC balances grew by,
 * and the owner's must have shrunk by exactly as much (no other USDC movement hides in it).
 *
 * @throws InvalidChainInputError for a malformed txId, owner, recipient or planId.
 * @example
 * const receipt = await readSolanaTransferReceipt(context, { txId, planId, owner, recipient });
 */
export async function readSolanaTransferReceipt(
  context: SolanaContext,
  query: TransferReceiptQuery,
): Promise<Receipt> {
  const recipient = parsePublicKey(query.recipient);
  if (!recipient) {
    throw new InvalidChainInputError('recipient', 'recipient: not a base58 Solana public key');
  }
  const read = await readPlannedSolanaTransaction(context, query);
  if (read.status !== 'ran') return read;
  const { meta, keys, owner, mint } = read;
  try {
    const received = tokenBalanceDelta(meta, keys, { mint, owner: recipient });
    const sent = -tokenBalanceDelta(meta, keys, { mint, owner });
    if (received <= 0n) {
      return { status: 'mismatch', txId: query.txId, reason: `no USDC reached ${query.recipient}` };
    }
    if (sent !== received) {
      return {
        status: 'mismatch',
        txId: query.txId,
        reason: `${formatUnits(received, USDC_DECIMALS)} USDC reached the recipient but the owner's USDC changed by ${formatUnits(-sent, USDC_DECIMALS)}`,
      };
    }
    return {
      status: 'confirmed',
      txId: query.txId,
      planId: query.planId,
      amountMicros: received,
      shares: null,
      block: String(read.slot),
    };
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
}
