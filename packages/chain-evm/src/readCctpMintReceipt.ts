import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { ReceiptWith } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { Hash } from 'viem';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from './cctpAbi';
import { decodeEvmLog } from './decodeEvmLog';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';

export interface ReadCctpMintReceiptParameters {
  readonly txId: string;
  readonly messageTransmitter: string;
  readonly tokenMessenger: string;
  /** The attested message's nonce and source domain: which message this mint must deliver. */
  readonly nonce: string;
  readonly sourceDomain: number;
  /** Who the mint must credit. */
  readonly mintRecipient: string;
}

export type ReadCctpMintReceiptReturnType = ReceiptWith<{
  /** USDC micros minted to the recipient (the MintAndWithdraw amount, net of the rail fee). */
  readonly amountMicros: bigint;
  /** What the rail kept on the destination. */
  readonly feeMicros: bigint;
}>;

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * What the destination chain says about a CCTP mint: the transmitter's `MessageReceived` for the
 * plan's message (nonce and source domain), and the messenger's `MintAndWithdraw` of USDC it
 * triggered, which must credit the expected recipient. Whoever relayed the message does not
 * matter; which message it delivered does. Unknown → `pending`; reverted → `failed`; another
 * message or recipient → `mismatch`.
 *
 * @throws InvalidChainInputError for a malformed txId or address.
 * @example
 * await readCctpMintReceipt(context, { txId, messageTransmitter, tokenMessenger, nonce, sourceDomain: 6, mintRecipient })
 * // { status: 'confirmed', amountMicros: 24_990_000n, feeMicros: 0n }
 */
export async function readCctpMintReceipt(
  context: EvmContext,
  query: ReadCctpMintReceiptParameters,
): Promise<ReadCctpMintReceiptReturnType> {
  if (!TX_HASH.test(query.txId))
    throw new InvalidChainInputError('txId', 'txId: must be 0x + 64 hex');
  const txId = query.txId.toLowerCase() as Hash;
  const transmitter = normalizeEvmAddress(query.messageTransmitter);
  const messenger = normalizeEvmAddress(query.tokenMessenger);
  const recipient = normalizeEvmAddress(query.mintRecipient);
  if (!transmitter || !messenger || !recipient) {
    throw new InvalidChainInputError('mintRecipient', 'addresses must be EVM addresses');
  }
  const what = `CCTP mint ${txId} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  const usdc = context.usdc;
  if (!usdc) throw new InvalidChainInputError('usdc', `no USDC is configured for ${context.label}`);
  try {
    const receipt = await context.rpc.getTransactionReceipt(txId);
    if (!receipt) return { status: 'pending', txId };
    if (receipt.status === 'reverted') {
      return { status: 'failed', txId, reason: `reverted in block ${receipt.blockNumber}` };
    }
    // The messenger's MintAndWithdraw comes just before the MessageReceived of its message.
    let minted: { amount: bigint; fee: bigint; to: string } | undefined;
    for (const log of receipt.logs) {
      if (isAddressEqual(log.address, messenger)) {
        const event = decodeEvmLog(tokenMessengerV2Abi, log);
        if (event?.eventName === 'MintAndWithdraw' && isAddressEqual(event.args.mintToken, usdc)) {
          minted = {
            amount: event.args.amount,
            fee: event.args.feeCollected,
            to: event.args.mintRecipient,
          };
        }
        continue;
      }
      if (!isAddressEqual(log.address, transmitter)) continue;
      const event = decodeEvmLog(messageTransmitterV2Abi, log);
      if (event?.eventName !== 'MessageReceived') continue;
      const ours =
        event.args.nonce.toLowerCase() === query.nonce.toLowerCase() &&
        event.args.sourceDomain === query.sourceDomain;
      if (!ours) {
        minted = undefined;
        continue;
      }
      if (!minted) return { status: 'mismatch', txId, reason: 'the message minted no USDC' };
      if (!isAddressEqual(minted.to as `0x${string}`, recipient)) {
        return { status: 'mismatch', txId, reason: `minted to ${minted.to}, not ${recipient}` };
      }
      return { status: 'confirmed', txId, amountMicros: minted.amount, feeMicros: minted.fee };
    }
    return {
      status: 'mismatch',
      txId,
      reason: "the transaction delivers no message of this plan's",
    };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
