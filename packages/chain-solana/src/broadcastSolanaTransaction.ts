import { SendTransactionError } from '@solana/web3.js';
import type { BroadcastResult, SignedTransaction } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { decodeSolanaWire } from './decodeSolanaWire';
import { describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import type { SolanaContext } from './solanaContext';
import { unsignedReason } from './verifyTransactionSignatures';

/**
 * Submits owner-signed wire bytes (base64) with preflight, only when broadcast is enabled.
 * Malformed bytes throw `InvalidChainInputError` (field `transaction`); a transaction that is
 * not fully and validly signed is `rejected` without an RPC call; a node's refusal (preflight,
 * signature) is `rejected` with its message; a transport failure is `unavailable` (the
 * transaction may still land — read its receipt).
 *
 * @example
 * await broadcastSolanaTransaction(context, { transaction: base64Signed });
 */
export async function broadcastSolanaTransaction(
  context: SolanaContext,
  signed: SignedTransaction,
): Promise<BroadcastResult> {
  if (!context.config.broadcastEnabled) {
    return {
      status: 'refused',
      blocker: {
        code: 'broadcast_disabled',
        message: 'Solana broadcast is off; the owner submits the signed transaction',
      },
    };
  }
  const { bytes, transaction } = decodeSolanaWire(signed.transaction);
  const problem = unsignedReason(transaction);
  if (problem) return { status: 'rejected', reason: `not fully signed: ${problem}` };
  if (context.rpc.status !== 'ok') return rpcNotConfigured('broadcast', context.rpc.detail);
  const first = transaction.signatures[0];
  const txId = first ? bs58.encode(first) : '';
  let answered: string;
  try {
    answered = await context.rpc.connection.sendRawTransaction(bytes, {
      skipPreflight: false,
      preflightCommitment: 'confirmed',
    });
  } catch (error) {
    if (error instanceof SendTransactionError) {
      return { status: 'rejected', reason: error.transactionError.message };
    }
    return describeRpcFailure(error, 'broadcast (the transaction may still land)');
  }
  if (answered !== txId) {
    return {
      status: 'unavailable',
      reason: 'rpc_bad_response',
      detail: `broadcast: the RPC answered signature ${answered.slice(0, 100)}, expected ${txId}`,
    };
  }
  return { status: 'submitted', txId };
}
