import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegChangesReading } from '@yieldrouter/schemas';
import type { Hash } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { toUnavailable } from './toUnavailable';
import { tokenChanges } from './tokenChanges';

/**
 * What a mined transaction moved: the token balance changes of its Transfer logs, read from its
 * receipt (the same reading as the simulation's, so the two compare account by account). Not
 * mined yet: `pending`; a reverted transaction moved nothing. Fail-closed.
 *
 * @example
 * await readEvmLegChanges(context, '0x…')
 * // { status: 'ok', changes: [{ account: owner, asset: usdc, delta: 950_000n }, …] }
 */
export async function readEvmLegChanges(
  context: EvmContext,
  txId: string,
): Promise<LegChangesReading> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be a 0x-prefixed 32-byte hash');
  }
  const what = `token changes of ${txId} on ${context.label}`;
  const rpc = context.rpc;
  if (!rpc) return rpcNotConfigured(context, what);
  try {
    const receipt = await rpc.getTransactionReceipt(txId as Hash);
    if (!receipt) return { status: 'pending' };
    return {
      status: 'ok',
      changes: receipt.status === 'success' ? tokenChanges(receipt.logs) : [],
    };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
