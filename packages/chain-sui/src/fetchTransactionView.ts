import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Unavailable } from '@yieldrouter/schemas';
import { SuiBadResponseError } from './errors';
import { isTransactionNotFound, suiRpcFailure } from './rpc';
import type { TransactionView } from './shapes';
import { readTransaction } from './shapes';

/**
 * A leg's transaction with its input, effects, events and balance changes, checked to be the one
 * asked for; not found → `pending`; an RPC failure or a bad answer → `unavailable`. `needsInput`
 * says when the input must be shown (a failed transaction is judged by it).
 */
export async function fetchTransactionView(
  client: SuiJsonRpcClient,
  txId: string,
  what: string,
  needsInput: (view: TransactionView) => boolean,
): Promise<
  | { readonly view: TransactionView }
  | { readonly answer: { readonly status: 'pending'; readonly txId: string } | Unavailable }
> {
  try {
    const response = await client.getTransactionBlock({
      digest: txId,
      options: { showInput: true, showEffects: true, showEvents: true, showBalanceChanges: true },
    });
    const view = readTransaction(response);
    if (view.digest !== txId) {
      throw new SuiBadResponseError(`${what}: the RPC answered for another transaction`);
    }
    if (view.input === undefined && needsInput(view)) {
      throw new SuiBadResponseError(`${what}: the RPC did not show the transaction input`);
    }
    return { view };
  } catch (error) {
    if (isTransactionNotFound(error, txId)) return { answer: { status: 'pending', txId } };
    return { answer: suiRpcFailure(error, what) };
  }
}
