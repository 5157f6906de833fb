import type { Receipt } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { Address, Hash } from 'viem';
import type { EvmReceipt, EvmRpc, EvmTransaction } from './evmRpc';
import { readPlanTag } from './planTag';

export interface ReadPlannedEvmTransactionParameters {
  readonly txId: Hash;
  readonly owner: Address;
  readonly planId: string;
  /** The contract the leg must call. */
  readonly to: Address;
}

export type ReadPlannedEvmTransactionReturnType =
  /** The answers a venue or swap receipt gives before it reads any amount. */
  | Extract<Receipt, { readonly status: 'pending' | 'mismatch' | 'failed' }>
  | {
      readonly status: 'mined';
      readonly receipt: EvmReceipt;
      readonly transaction: EvmTransaction;
    };

/**
 * A leg's transaction and receipt, proven to be the leg's before any amount is read from them:
 * unknown → `pending`; not sent by the owner / not tagged for this plan / not to `to` →
 * `mismatch`; reverted → `failed` (only once it is proven the leg's own); else `mined`.
 * RPC errors are thrown for the caller to report.
 *
 * @example
 * const read = await readPlannedEvmTransaction(rpc, { txId, owner, planId, to: vault })
 * if (read.status !== 'mined') return read
 */
export async function readPlannedEvmTransaction(
  rpc: EvmRpc,
  query: ReadPlannedEvmTransactionParameters,
): Promise<ReadPlannedEvmTransactionReturnType> {
  const { txId, owner, to } = query;
  const receipt = await rpc.getTransactionReceipt(txId);
  if (!receipt) return { status: 'pending', txId };
  const transaction = await rpc.getTransaction(txId);
  if (!transaction) return { status: 'pending', txId };
  if (!isAddressEqual(transaction.from, owner)) {
    return { status: 'mismatch', txId, reason: `sent by ${transaction.from}, not the owner` };
  }
  const tagged = readPlanTag(transaction.input);
  if (tagged !== query.planId) {
    return {
      status: 'mismatch',
      txId,
      reason: tagged ? `tagged for ${tagged}` : 'the calldata carries no plan tag',
    };
  }
  if (!transaction.to || !isAddressEqual(transaction.to, to)) {
    return {
      status: 'mismatch',
      txId,
      reason: `sent to ${transaction.to ?? 'a new contract'}, not ${to}`,
    };
  }
  if (receipt.status === 'reverted') {
    return { status: 'failed', txId, reason: `reverted in block ${receipt.blockNumber}` };
  }
  return { status: 'mined', receipt, transaction };
}
