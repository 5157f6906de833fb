import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest, normalizeStructTag, toHex } from '@mysten/sui/utils';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { ReceiptWith, Unavailable } from '@yieldrouter/schemas';
import { normalizeSuiOwner, requireSuiAddress } from '../address';
import { SuiBadResponseError } from '../errors';
import { pureBytes } from '../legCall';
import { isTransactionNotFound, rpcNotConfigured, suiRpcFailure } from '../rpc';
import type { EventView, TransactionView } from '../shapes';
import { readTransaction } from '../shapes';
import type { CctpSuiIds } from './cctpSuiIds';

/** A CCTP burn on Sui as its receipt proves it; `mintRecipient` as bytes32 hex. */
export type CctpSuiBurnReading = ReceiptWith<{
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  readonly mintRecipient: `0x${string}`;
}>;

/** A CCTP mint on Sui as its receipt proves it. */
export type CctpSuiMintReading = ReceiptWith<{
  readonly amountMicros: bigint;
  readonly feeMicros: bigint;
}>;

export interface CctpSuiReadContext {
  readonly client: SuiJsonRpcClient | undefined;
  readonly usdcCoinType: string | undefined;
  readonly ids: CctpSuiIds;
}

const canonical = (type: string) => {
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
};

function eventsOf(view: TransactionView, type: string): Record<string, unknown>[] {
  const wanted = canonical(type);
  return view.events
    .filter((event: EventView) => canonical(event.type) === wanted)
    .map((event) => {
      const json = event.parsedJson;
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new SuiBadResponseError(`event ${event.type} has no parsedJson object`);
      }
      return json as Record<string, unknown>;
    });
}

function integer(value: unknown, what: string): bigint {
  if ((typeof value === 'string' && /^\d+$/.test(value)) || Number.isSafeInteger(value)) {
    return BigInt(value as string | number);
  }
  throw new SuiBadResponseError(`${what} is not an unsigned integer`);
}

/** The net change of USDC in the transaction for `owner` (0n when none). */
function usdcChange(view: TransactionView, owner: string, usdc: string): bigint {
  return view.balanceChanges
    .filter((change) => change.owner !== undefined && normalizeSuiOwner(change.owner) === owner)
    .filter((change) => canonical(change.coinType) === usdc)
    .reduce((total, change) => total + change.amount, 0n);
}

async function fetchView(
  context: CctpSuiReadContext,
  txId: string,
  what: string,
): Promise<
  | { readonly view: TransactionView }
  | { readonly answer: Unavailable | { readonly status: 'pending'; readonly txId: string } }
> {
  if (!isValidTransactionDigest(txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be a base58 Sui transaction digest');
  }
  if (context.usdcCoinType === undefined) {
    return {
      answer: {
        status: 'unavailable',
        reason: 'asset_not_configured',
        detail: `${what}: the USDC coin type is not configured`,
      },
    };
  }
  if (!context.client) return { answer: rpcNotConfigured(what) };
  try {
    const response = await context.client.getTransactionBlock({
      digest: txId,
      options: { showInput: true, showEffects: true, showEvents: true, showBalanceChanges: true },
    });
    const view = readTransaction(response);
    if (view.digest !== txId) throw new SuiBadResponseError(`${what}: another transaction`);
    return { view };
  } catch (error) {
    if (isTransactionNotFound(error, txId)) return { answer: { status: 'pending', txId } };
    return { answer: suiRpcFailure(error, what) };
  }
}

/**
 * What the chain says about a CCTP burn leg from Sui: not found → pending; failed → failed when
 * the owner sent it, else mismatch; else exactly one `deposit_for_burn::DepositForBurn` of the
 * configured package whose depositor (the transaction's sender, as the package sets it) is the
 * owner, and the owner's USDC balance fell by at least its amount (the service fee may ride in
 * the same transaction). Amount, domain and recipient are the event's.
 *
 * @throws InvalidChainInputError for a malformed txId or owner.
 */
export async function readCctpSuiBurn(
  context: CctpSuiReadContext,
  query: { readonly txId: string; readonly owner: string },
): Promise<CctpSuiBurnReading> {
  const owner = requireSuiAddress('owner', query.owner);
  const { txId } = query;
  const read = await fetchView(context, txId, 'burn receipt');
  if ('answer' in read) return read.answer;
  const tx = read.view;
  const usdc = canonical(context.usdcCoinType ?? '') as string;
  if (tx.status === 'failure') {
    const sender = tx.input?.sender;
    return sender !== undefined && normalizeSuiOwner(sender) === owner
      ? { status: 'failed', txId, reason: tx.error ?? 'execution failed' }
      : { status: 'mismatch', txId, reason: 'a failed transaction the owner did not send' };
  }
  try {
    const burns = eventsOf(
      tx,
      `${context.ids.tokenMessengerMinterPackage}::deposit_for_burn::DepositForBurn`,
    );
    const [burn, ...others] = burns;
    if (!burn || others.length > 0) {
      return { status: 'mismatch', txId, reason: `${burns.length} DepositForBurn events` };
    }
    const depositor = typeof burn['depositor'] === 'string' ? burn['depositor'] : '';
    if (normalizeSuiOwner(depositor) !== owner) {
      return { status: 'mismatch', txId, reason: `the depositor is ${depositor}, not the owner` };
    }
    const amount = integer(burn['amount'], 'DepositForBurn.amount');
    const change = usdcChange(tx, owner, usdc);
    if (amount <= 0n || -change < amount) {
      return {
        status: 'mismatch',
        txId,
        reason: `the owner's USDC changed by ${change}; the burn names ${amount}`,
      };
    }
    const recipient = normalizeSuiOwner(String(burn['mint_recipient']));
    if (!recipient) throw new SuiBadResponseError('DepositForBurn.mint_recipient is no address');
    return {
      status: 'confirmed',
      txId,
      amountMicros: amount,
      destinationDomain: Number(integer(burn['destination_domain'], 'destination_domain')),
      mintRecipient: recipient as `0x${string}`,
    };
  } catch (error) {
    return suiRpcFailure(error, 'burn receipt');
  }
}

/** A CCTP v2 message header: source domain at bytes 4..8, nonce at bytes 12..44 (148 bytes). */
const MESSAGE_HEADER_BYTES = 148;

/**
 * Whether a transaction's input calls the transmitter package's
 * `receive_message::receive_message(message, attestation, mt_state)` (the first call of the mint
 * leg) with the message of `nonce` from `sourceDomain`: read from the input alone, since a failed
 * transaction emits no events.
 */
function receivesMessage(
  tx: TransactionView,
  transmitterPackage: string,
  message: { readonly nonce: bigint; readonly sourceDomain: number },
): boolean {
  const input = tx.input;
  if (!input) return false;
  const transmitter = normalizeSuiOwner(transmitterPackage);
  return input.moveCalls.some((call) => {
    if (
      transmitter === undefined ||
      normalizeSuiOwner(call.package) !== transmitter ||
      call.module !== 'receive_message' ||
      call.function !== 'receive_message'
    ) {
      return false;
    }
    const index = call.inputs[0];
    const bytes = pureBytes(index === undefined ? undefined : input.inputs[index]);
    if (!bytes || bytes.length < MESSAGE_HEADER_BYTES) return false;
    const header = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return (
      header.getUint32(4) === message.sourceDomain &&
      BigInt(`0x${toHex(bytes.subarray(12, 44))}`) === message.nonce
    );
  });
}

/**
 * What the chain says about a CCTP mint on Sui (anyone may have submitted it): not found →
 * pending; failed → failed only when it called the transmitter's `receive_message` with this
 * message (nonce, source domain), else mismatch (someone else's failed transaction proves nothing
 * about the bridge); no `receive_message::MessageReceived` of this nonce and source domain
 * → mismatch; else the `MintAndWithdraw` to the recipient (its `amount` is net of the rail's fee)
 * and the recipient's USDC balance change, which must agree; `feeMicros` is the events'
 * `fee_collected` (what the rail kept).
 *
 * @throws InvalidChainInputError for a malformed txId, recipient or nonce.
 */
export async function readCctpSuiMint(
  context: CctpSuiReadContext,
  query: {
    readonly txId: string;
    readonly nonce: string;
    readonly sourceDomain: number;
    readonly recipient: string;
  },
): Promise<CctpSuiMintReading> {
  const recipient = requireSuiAddress('recipient', query.recipient);
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(query.nonce)) {
    throw new InvalidChainInputError('nonce', 'nonce: must be 0x + hex');
  }
  const { txId } = query;
  const read = await fetchView(context, txId, 'mint receipt');
  if ('answer' in read) return read.answer;
  const tx = read.view;
  const { ids } = context;
  const nonce = BigInt(query.nonce);
  if (tx.status === 'failure') {
    return receivesMessage(tx, ids.messageTransmitterPackage, {
      nonce,
      sourceDomain: query.sourceDomain,
    })
      ? { status: 'failed', txId, reason: tx.error ?? 'failed' }
      : {
          status: 'mismatch',
          txId,
          reason: "the failed transaction is not a receive_message of this plan's message",
        };
  }
  const usdc = canonical(context.usdcCoinType ?? '') as string;
  try {
    const received = eventsOf(
      tx,
      `${ids.messageTransmitterPackage}::receive_message::MessageReceived`,
    ).some(
      (event) =>
        integer(event['nonce'], 'MessageReceived.nonce') === nonce &&
        integer(event['source_domain'], 'MessageReceived.source_domain') ===
          BigInt(query.sourceDomain),
    );
    if (!received) {
      return { status: 'mismatch', txId, reason: `receives no message with nonce ${nonce}` };
    }
    const mints = eventsOf(
      tx,
      `${ids.tokenMessengerMinterPackage}::handle_receive_message::MintAndWithdraw`,
    ).filter((event) => normalizeSuiOwner(String(event['mint_recipient'])) === recipient);
    const minted = mints.reduce(
      (total, event) => total + integer(event['amount'], 'MintAndWithdraw.amount'),
      0n,
    );
    const fee = mints.reduce(
      (total, event) => total + integer(event['fee_collected'], 'MintAndWithdraw.fee_collected'),
      0n,
    );
    const change = usdcChange(tx, recipient, usdc);
    if (minted <= 0n || change !== minted) {
      return {
        status: 'mismatch',
        txId,
        reason: `minted ${minted} to the recipient, whose USDC changed by ${change}`,
      };
    }
    return { status: 'confirmed', txId, amountMicros: minted, feeMicros: fee };
  } catch (error) {
    return suiRpcFailure(error, 'mint receipt');
  }
}
