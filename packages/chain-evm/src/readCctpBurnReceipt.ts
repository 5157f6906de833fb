import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { ReceiptWith } from '@yieldrouter/schemas';
import { getAddress, isAddressEqual, sliceHex } from 'viem';
import type { Address } from 'viem';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from './cctpAbi';
import { decodeEvmLog } from './decodeEvmLog';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { parseLegReceiptQuery } from './parseLegReceiptQuery';
import { readPlannedEvmTransaction } from './readPlannedEvmTransaction';
import { toUnavailable } from './toUnavailable';

export interface ReadCctpBurnReceiptParameters {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  readonly tokenMessenger: string;
}

export type ReadCctpBurnReceiptReturnType = ReceiptWith<{
  /** USDC micros the owner burned (the DepositForBurn amount). */
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  readonly mintRecipient: Address;
  /** The recipient as the burn names it (bytes32): a Solana token account or a Sui address. */
  readonly mintRecipientBytes32: `0x${string}`;
  readonly maxFeeMicros: bigint;
  readonly minFinalityThreshold: number;
  /** The message the transmitter emitted (nonce still zero: the attester assigns it). */
  readonly message: `0x${string}`;
}>;

/**
 * What the source chain says about a CCTP burn leg: the transaction proven the plan's own (from
 * the owner, to the token messenger, tagged), then its `DepositForBurn` log (of USDC, by the
 * owner) and its `MessageSent`. Unknown → `pending`; another transaction, or no burn of USDC by
 * the owner in it → `mismatch`; reverted → `failed`; RPC trouble → `unavailable`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId or messenger.
 * @example
 * await readCctpBurnReceipt(context, { txId, planId, owner, tokenMessenger })
 * // { status: 'confirmed', amountMicros: 25_000_000n, destinationDomain: 3, … }
 */
export async function readCctpBurnReceipt(
  context: EvmContext,
  query: ReadCctpBurnReceiptParameters,
): Promise<ReadCctpBurnReceiptReturnType> {
  const { txId, owner } = parseLegReceiptQuery(query);
  const messenger = normalizeEvmAddress(query.tokenMessenger);
  if (!messenger)
    throw new InvalidChainInputError('tokenMessenger', 'tokenMessenger: not an address');
  const what = `CCTP burn ${txId} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  if (!context.usdc) {
    throw new InvalidChainInputError('usdc', `no USDC is configured for ${context.label}`);
  }
  try {
    const read = await readPlannedEvmTransaction(context.rpc, {
      txId,
      owner,
      planId: query.planId,
      to: messenger,
    });
    if (read.status !== 'mined') return read;
    let burn: ReturnType<typeof burnOf> | undefined;
    let message: `0x${string}` | undefined;
    for (const log of read.receipt.logs) {
      if (isAddressEqual(log.address, messenger)) burn ??= burnOf(log, context.usdc, owner);
      const sent = decodeEvmLog(messageTransmitterV2Abi, log);
      if (sent?.eventName === 'MessageSent') message ??= sent.args.message;
    }
    if (!burn || !message) {
      return { status: 'mismatch', txId, reason: 'no DepositForBurn of USDC by the owner in it' };
    }
    return { status: 'confirmed', txId, ...burn, message };
  } catch (error) {
    return toUnavailable(error, what);
  }
}

function burnOf(log: Parameters<typeof decodeEvmLog>[1], usdc: Address, owner: Address) {
  const event = decodeEvmLog(tokenMessengerV2Abi, log);
  if (event?.eventName !== 'DepositForBurn') return undefined;
  const { args } = event;
  if (!isAddressEqual(args.burnToken, usdc) || !isAddressEqual(args.depositor, owner)) {
    return undefined;
  }
  return {
    amountMicros: args.amount,
    destinationDomain: args.destinationDomain,
    mintRecipient: getAddress(sliceHex(args.mintRecipient, 12)),
    mintRecipientBytes32: args.mintRecipient,
    maxFeeMicros: args.maxFee,
    minFinalityThreshold: args.minFinalityThreshold,
  };
}
