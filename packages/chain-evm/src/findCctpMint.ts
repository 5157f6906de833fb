import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { Unavailable } from '@yieldrouter/schemas';
import { toEventSelector } from 'viem';
import type { Hash, Hex } from 'viem';
import { messageTransmitterV2Abi } from './cctpAbi';
import { decodeEvmLog } from './decodeEvmLog';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';

export interface FindCctpMintParameters {
  readonly messageTransmitter: string;
  /** The attested message's nonce (bytes32) and its source domain. */
  readonly nonce: string;
  readonly sourceDomain: number;
  /** How many blocks back from the latest to search. */
  readonly lookbackBlocks: bigint;
}

export type FindCctpMintReturnType =
  | { readonly status: 'found'; readonly txId: Hash }
  | { readonly status: 'not_found' }
  | Unavailable;

const MESSAGE_RECEIVED = toEventSelector(
  'MessageReceived(address,uint32,bytes32,bytes32,uint32,bytes)',
);
const NONCE = /^0x[0-9a-fA-F]{64}$/;

/**
 * Which destination transaction received a CCTP message, whoever relayed it: the transmitter's
 * `MessageReceived` log with the message's nonce (an indexed topic) and source domain, searched
 * over the last `lookbackBlocks` blocks. What it minted is for `readCctpMintReceipt` to prove.
 *
 * @throws InvalidChainInputError for a malformed nonce or transmitter.
 * @example
 * await findCctpMint(context, { messageTransmitter, nonce, sourceDomain: 6, lookbackBlocks: 10_000n })
 * // { status: 'found', txId: '0x…' }
 */
export async function findCctpMint(
  context: EvmContext,
  query: FindCctpMintParameters,
): Promise<FindCctpMintReturnType> {
  if (!NONCE.test(query.nonce)) throw new InvalidChainInputError('nonce', 'nonce: 0x + 64 hex');
  const transmitter = normalizeEvmAddress(query.messageTransmitter);
  if (!transmitter) {
    throw new InvalidChainInputError('messageTransmitter', 'messageTransmitter: not an address');
  }
  const what = `CCTP message ${query.nonce} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  try {
    const latest = await context.rpc.blockNumber();
    const fromBlock = latest > query.lookbackBlocks ? latest - query.lookbackBlocks : 0n;
    const logs = await context.rpc.getLogs({
      address: transmitter,
      topics: [MESSAGE_RECEIVED, null, query.nonce.toLowerCase() as Hex],
      fromBlock,
    });
    for (const log of logs) {
      const event = decodeEvmLog(messageTransmitterV2Abi, log);
      if (
        event?.eventName === 'MessageReceived' &&
        event.args.nonce.toLowerCase() === query.nonce.toLowerCase() &&
        event.args.sourceDomain === query.sourceDomain
      ) {
        return { status: 'found', txId: log.transactionHash };
      }
    }
    return { status: 'not_found' };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
