import type { Unavailable } from '@yieldrouter/schemas';
import { describeRpcFailure, rpcNotConfigured } from '../describeRpcFailure';
import type { SolanaContext } from '../solanaContext';
import { readCctpV2Message } from './cctpSolanaMessage';
import { decodeReceiveMessageData } from './cctpSolanaInstructions';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { cctpSolanaPdas } from './cctpSolanaPrograms';

/** Where a CCTP message was received on Solana: the transaction, or not (yet). */
export type CctpSolanaMintSearch =
  | { readonly status: 'found'; readonly txId: string }
  | { readonly status: 'not_found' }
  | Unavailable;

export interface FindCctpSolanaMintParameters {
  /** The attested message's nonce (0x + 64 hex). */
  readonly nonce: string;
  readonly programs: CctpSolanaPrograms;
  /** How many of the used-nonce account's transactions to look through (newest first). */
  readonly limit?: number;
}

/**
 * Finds the transaction that received a CCTP v2 message on Solana, whoever sent it: the
 * transactions naming the message's used-nonce PDA (MessageTransmitterV2 creates it when it
 * receives the message), oldest first among those that succeeded, and the first whose
 * MessageTransmitterV2 `receive_message` carries this nonce. Anyone may name the PDA in another
 * transaction: those are passed over. Fail-closed: an unreadable RPC is `unavailable`.
 *
 * @throws Error for a nonce that is not 0x + 64 hex.
 */
export async function findCctpSolanaMint(
  context: SolanaContext,
  query: FindCctpSolanaMintParameters,
): Promise<CctpSolanaMintSearch> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(query.nonce)) throw new Error('nonce: must be 0x + 64 hex');
  if (context.rpc.status !== 'ok') return rpcNotConfigured('mint search', context.rpc.detail);
  const { connection } = context.rpc;
  const nonce = Buffer.from(query.nonce.slice(2), 'hex');
  const usedNonce = cctpSolanaPdas(query.programs).usedNonce(nonce);
  try {
    const listed = await connection.getSignaturesForAddress(
      usedNonce,
      { limit: query.limit ?? 25 },
      'confirmed',
    );
    for (const entry of listed.filter((item) => item.err === null).reverse()) {
      const response = await connection.getTransaction(entry.signature, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (!response?.meta || response.meta.err !== null) continue;
      const keys = response.transaction.message.getAccountKeys({
        accountKeysFromLookups: response.meta.loadedAddresses ?? null,
      });
      const receives = response.transaction.message.compiledInstructions.some((instruction) => {
        if (!keys.get(instruction.programIdIndex)?.equals(query.programs.messageTransmitter)) {
          return false;
        }
        const message = decodeReceiveMessageData(instruction.data);
        const fields = message ? readCctpV2Message(message) : undefined;
        return fields !== undefined && Buffer.from(fields.nonce).equals(nonce);
      });
      if (receives) return { status: 'found', txId: entry.signature };
    }
    return { status: 'not_found' };
  } catch (error) {
    return describeRpcFailure(error, 'mint search');
  }
}
