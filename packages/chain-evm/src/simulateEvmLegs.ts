import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegSimulationQuery, LegSimulationReading } from '@yieldrouter/schemas';
import type { Hex } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import type { EvmCall } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';
import { tokenApprovals, tokenChanges } from './tokenChanges';

/**
 * Runs a plan's unsigned EVM legs from the owner, in order, in one `eth_simulateV1` block on the
 * latest state (each leg sees what the earlier ones left: a deposit sees its approval), and
 * reports each leg's token balance changes from the Transfer logs it emitted, the allowances its
 * Approval logs set and the contract it calls. A leg that reverts is reported `reverted` (no
 * changes). An unset, slow or garbled RPC is `unavailable`: never an
 * outcome the chain did not compute.
 *
 * @example
 * await simulateEvmLegs(context, { owner, payloads: legs.map((leg) => leg.payload) })
 * // { status: 'ok', method: 'eth_simulateV1', block: '42', usdc, legs: [{ outcome: 'ok', changes }] }
 */
export async function simulateEvmLegs(
  context: EvmContext,
  query: LegSimulationQuery,
): Promise<LegSimulationReading> {
  const owner = normalizeEvmAddress(query.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: must be an EVM address');
  const calls: EvmCall[] = query.payloads.map((payload, index) => {
    const to =
      payload.encoding === 'evm-transaction-request'
        ? normalizeEvmAddress(payload.transaction.to)
        : undefined;
    if (payload.encoding !== 'evm-transaction-request' || !to) {
      throw new InvalidChainInputError(`legs.${index}`, `legs.${index}: not an EVM leg`);
    }
    const { data, value } = payload.transaction;
    return { from: owner, to, data: data as Hex, value: BigInt(value) };
  });
  const what = `simulation of ${calls.length} leg(s) from ${owner} on ${context.label}`;
  const rpc = context.rpc;
  if (!rpc) return rpcNotConfigured(context, what);
  try {
    const simulated = await rpc.simulateCalls(calls);
    const state = simulated[0]?.blockNumber;
    return {
      status: 'ok',
      method: 'eth_simulateV1',
      block: state === undefined ? null : (state - 1n).toString(10),
      usdc: context.usdc ?? null,
      legs: simulated.map((call, index) => {
        const called = [calls[index]?.to as string];
        return call.success
          ? {
              outcome: 'ok' as const,
              changes: tokenChanges(call.logs),
              calls: called,
              approvals: tokenApprovals(call.logs),
            }
          : {
              outcome: 'reverted' as const,
              detail: 'the call reverts',
              changes: [],
              calls: called,
            };
      }),
    };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
