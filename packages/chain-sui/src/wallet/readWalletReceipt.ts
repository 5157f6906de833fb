import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { normalizeStructTag } from '@mysten/sui/utils';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { normalizeSuiOwner } from '../address';
import { SuiBadResponseError } from '../errors';
import { fetchTransactionView } from '../fetchTransactionView';
import { rpcNotConfigured, suiRpcFailure } from '../rpc';
import type { ObjectChangeView } from '../shapes';
import { matchWalletProof } from './walletProof';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function structTag(type: string): string | undefined {
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
}

/** A coin the transaction created, as the node shows it at the version it was created at. */
interface CreatedCoin {
  readonly type: string;
  readonly owner: string | undefined;
  readonly balance: bigint | undefined;
}

async function createdObject(
  client: SuiJsonRpcClient,
  change: ObjectChangeView,
): Promise<CreatedCoin> {
  const past = await client.tryGetPastObject({
    id: change.objectId,
    version: Number(change.version),
    options: { showType: true, showOwner: true, showContent: true },
  });
  if (past.status !== 'VersionFound') {
    throw new SuiBadResponseError(
      `object ${change.objectId} the transaction created is not readable at version ${change.version}`,
    );
  }
  const { details } = past;
  if (typeof details.type !== 'string') {
    throw new SuiBadResponseError(`object ${change.objectId}: the node showed no type`);
  }
  const owner: unknown = details.owner;
  const address =
    isRecord(owner) && typeof owner.AddressOwner === 'string' ? owner.AddressOwner : undefined;
  const content = details.content;
  const fields = content?.dataType === 'moveObject' ? (content.fields as unknown) : undefined;
  const balance = isRecord(fields) ? fields.balance : undefined;
  return {
    type: details.type,
    owner: address === undefined ? undefined : normalizeSuiOwner(address),
    balance: typeof balance === 'string' && /^\d+$/.test(balance) ? BigInt(balance) : undefined,
  };
}

/**
 * A wallet leg's receipt (a route or an exit with no venue: liquid USDC stays in the owner's
 * wallet). The transaction must be the leg's own (`matchWalletProof`: sent by the owner, this
 * plan's id, no Move call outside the Sui framework) before anything in it counts; a failure
 * fails the leg only then. A success proves what the owner holds: the `Coin<USDC>` objects it
 * created for the owner, each read at the version it was created at (`sui_tryGetPastObject`),
 * summed. A self-transfer changes no balance, so balance changes prove nothing here; a coin sent
 * to anyone else, another coin type, or none at all is a mismatch. An object that cannot be
 * read makes the receipt `unavailable`, never an amount.
 */
export async function readWalletReceipt(
  client: SuiJsonRpcClient | undefined,
  query: ReceiptQuery,
  expected: { readonly usdc: string; readonly owner: string; readonly planBytes: Uint8Array },
): Promise<Receipt> {
  if (!client) return rpcNotConfigured('receipt');
  const { txId } = query;
  const fetched = await fetchTransactionView(client, txId, 'receipt', () => true);
  if ('answer' in fetched) return fetched.answer;
  const { view } = fetched;
  if (!view.input) return { status: 'mismatch', txId, reason: 'the transaction shows no input' };
  const match = matchWalletProof(view.input, expected);
  if (view.status === 'failure') {
    return match.status === 'matched'
      ? { status: 'failed', txId, reason: view.error ?? 'execution failed' }
      : { status: 'mismatch', txId, reason: `failed, not this leg's: ${match.reason}` };
  }
  if (match.status === 'mismatch') return { status: 'mismatch', txId, reason: match.reason };

  const coinType = normalizeStructTag(`0x2::coin::Coin<${expected.usdc}>`);
  let amount = 0n;
  try {
    for (const change of view.changedObjects.filter((item) => item.kind === 'created')) {
      const object = await createdObject(client, change);
      if (object.owner !== expected.owner || structTag(object.type) !== coinType) continue;
      if (object.balance === undefined) {
        throw new SuiBadResponseError(`coin ${change.objectId}: the node showed no balance`);
      }
      amount += object.balance;
    }
  } catch (error) {
    return suiRpcFailure(error, 'receipt');
  }
  if (amount === 0n) {
    return {
      status: 'mismatch',
      txId,
      reason: 'the transaction created no USDC coin for the owner',
    };
  }
  return {
    status: 'confirmed',
    txId,
    planId: query.planId,
    amountMicros: amount,
    shares: null,
    block: view.checkpoint,
  };
}
