import type { VersionedTransactionResponse } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { ReceiptWith } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { describeRpcFailure, rpcNotConfigured } from '../describeRpcFailure';
import { parsePublicKey } from '../parsePublicKey';
import type { SolanaContext } from '../solanaContext';
import { tokenBalanceDelta } from '../tokenBalanceDelta';
import { readCctpV2Message } from './cctpSolanaMessage';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { decodeReceiveMessageData } from './cctpSolanaInstructions';
import { usdcMintMissing } from '../usdcMintMissing';

/** A CCTP mint on Solana as its receipt proves it. */
export type CctpSolanaMintReading = ReceiptWith<{
  readonly amountMicros: bigint;
  /** What the rail kept: the message's burned amount less what reached the recipient. */
  readonly feeMicros: bigint;
}>;

export interface ReadCctpSolanaMintParameters {
  readonly txId: string;
  /** The attested message's nonce (0x + 64 hex): which message this mint must receive. */
  readonly nonce: string;
  /** The owner the mint credits (their USDC token balances are read). */
  readonly recipient: string;
  readonly programs: CctpSolanaPrograms;
}

/**
 * What the chain says about a CCTP v2 mint on Solana (anyone may have submitted it): not found →
 * pending; no MessageTransmitterV2 `receive_message` of the message with this nonce → mismatch;
 * `meta.err` → failed; else confirmed with what the recipient's USDC balances grew by (nothing
 * grew → mismatch) and the fee as the message's amount less that.
 *
 * @throws InvalidChainInputError for a malformed txId, recipient or nonce.
 */
export async function readCctpSolanaMint(
  context: SolanaContext,
  query: ReadCctpSolanaMintParameters,
): Promise<CctpSolanaMintReading> {
  const { txId } = query;
  if (bs58.decodeUnsafe(txId)?.length !== 64) {
    throw new InvalidChainInputError('txId', 'txId: not a base58 Solana transaction signature');
  }
  const recipient = parsePublicKey(query.recipient);
  if (!recipient) throw new InvalidChainInputError('recipient', 'recipient: not a Solana key');
  if (!/^0x[0-9a-fA-F]{64}$/.test(query.nonce)) {
    throw new InvalidChainInputError('nonce', 'nonce: must be 0x + 64 hex');
  }
  const mint = context.usdcMint;
  if (!mint) {
    return usdcMintMissing('mint receipt');
  }
  if (context.rpc.status !== 'ok') return rpcNotConfigured('mint receipt', context.rpc.detail);
  let response: VersionedTransactionResponse | null;
  try {
    response = await context.rpc.connection.getTransaction(txId, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
  } catch (error) {
    return describeRpcFailure(error, 'mint receipt');
  }
  if (!response) return { status: 'pending', txId };
  const { meta } = response;
  if (!meta) return { status: 'unavailable', reason: 'rpc_bad_response', detail: 'no meta' };
  try {
    const keys = response.transaction.message.getAccountKeys({
      accountKeysFromLookups: meta.loadedAddresses ?? null,
    });
    const nonce = query.nonce.slice(2).toLowerCase();
    const received = response.transaction.message.compiledInstructions
      .filter((instruction) =>
        keys.get(instruction.programIdIndex)?.equals(query.programs.messageTransmitter),
      )
      .map((instruction) => decodeReceiveMessageData(instruction.data))
      .map((message) => (message ? readCctpV2Message(message) : undefined))
      .find((fields) => fields && Buffer.from(fields.nonce).toString('hex') === nonce);
    if (!received) {
      return { status: 'mismatch', txId, reason: `receives no message with nonce ${query.nonce}` };
    }
    if (meta.err !== null) return { status: 'failed', txId, reason: JSON.stringify(meta.err) };
    const minted = tokenBalanceDelta(meta, keys, { mint, owner: recipient });
    if (minted <= 0n || minted > received.amount) {
      return {
        status: 'mismatch',
        txId,
        reason: `the owner's USDC changed by ${minted}; the message burned ${received.amount}`,
      };
    }
    return { status: 'confirmed', txId, amountMicros: minted, feeMicros: received.amount - minted };
  } catch (error) {
    return describeRpcFailure(error, 'mint receipt');
  }
}
