import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import type { EvmReceipt } from './evmRpc';
import { readPlannedEvmTransaction } from './readPlannedEvmTransaction';
import type {
  ReadPlannedEvmTransactionParameters,
  ReadPlannedEvmTransactionReturnType,
} from './readPlannedEvmTransaction';
import { toUnavailable } from './toUnavailable';

type NotMined = Exclude<ReadPlannedEvmTransactionReturnType, { readonly status: 'mined' }>;

/**
 * A leg reader's frame: the leg's transaction proven the leg's own (readPlannedEvmTransaction),
 * then `onMined` reads its amounts from the receipt. No RPC configured, or an RPC error (in
 * either step) → `unavailable` naming the receipt; pending, mismatch and reverted as read.
 *
 * @example
 * return readMinedLeg(context, { txId, owner, planId, to: usdc }, (receipt) => ({ … }))
 */
export async function readMinedLeg<Read>(
  context: EvmContext,
  query: ReadPlannedEvmTransactionParameters,
  onMined: (receipt: EvmReceipt) => Read | Promise<Read>,
): Promise<Read | NotMined | ReturnType<typeof toUnavailable>> {
  const what = `receipt of ${query.txId} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  try {
    const read = await readPlannedEvmTransaction(context.rpc, query);
    if (read.status !== 'mined') return read;
    return await onMined(read.receipt);
  } catch (error) {
    return toUnavailable(error, what);
  }
}
