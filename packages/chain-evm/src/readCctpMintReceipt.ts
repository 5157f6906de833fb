import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { ReceiptWith } from '@yieldrouter/schemas';
import { decodeFunctionData, isAddressEqual } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from './cctpAbi';
import { decodeEvmLog } from './decodeEvmLog';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import type { EvmTransaction } from './evmRpc';
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
 * matter; which message it delivered does. Unknown → `pending`; a reverted `receiveMessage` of
 * this message → `failed`; any other reverted transaction, another message or recipient →
 * `mismatch` (a reverted transaction never fails a bridge unless it was this message's mint).
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
      // Only a reverted call of the transmitter's receiveMessage with this plan's message is a
      // failed mint of it; any other reverted transaction proves nothing about the bridge.
      const call = await context.rpc.getTransaction(txId);
      if (!call || !mintsMessage(call, transmitter, query)) {
        return {
          status: 'mismatch',
          txId,
          reason: "the reverted transaction is not a receiveMessage of this plan's message",
        };
      }
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

/**
 * Whether a transaction calls the transmitter's `receiveMessage` with the message of `nonce`
 * from `sourceDomain` (CCTP v2 message header: version, sourceDomain at bytes 4..8, destination
 * domain, nonce at bytes 12..44).
 */
function mintsMessage(
  call: EvmTransaction,
  transmitter: Address,
  query: Pick<ReadCctpMintReceiptParameters, 'nonce' | 'sourceDomain'>,
): boolean {
  if (!call.to || !isAddressEqual(call.to, transmitter)) return false;
  let message: Hex;
  try {
    const decoded = decodeFunctionData({ abi: messageTransmitterV2Abi, data: call.input });
    if (decoded.functionName !== 'receiveMessage') return false;
    message = decoded.args[0];
  } catch {
    return false;
  }
  const bytes = message.slice(2);
  if (bytes.length < 88) return false;
  const sourceDomain = Number.parseInt(bytes.slice(8, 16), 16);
  const nonce = `0x${bytes.slice(24, 88)}`;
  return sourceDomain === query.sourceDomain && nonce.toLowerCase() === query.nonce.toLowerCase();
}
