import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { GasSizing, GasSizingQuery } from '@yieldrouter/schemas';
import type { Hex } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import type { EvmCall } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';

export type SizeEvmGasParameters = GasSizingQuery;
/** EVM sizing always reports the gas units and the fee per gas it priced them at. */
export type SizeEvmGasReturnType =
  | (Extract<GasSizing, { readonly status: 'ok' }> & {
      readonly gasUnits: bigint;
      readonly feePerGas: bigint;
    })
  | Exclude<GasSizing, { readonly status: 'ok' }>;

/**
 * Gas used in a simulation is below the limit a transaction needs (refunds, the 63/64 rule):
 * a leg sized by simulation gets this headroom, in bps.
 */
const SIMULATED_GAS_HEADROOM_BPS = 2_000n;

function isRevert(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /revert|execution reverted|ExecutionError/i.test(text);
}

/**
 * The native gas `owner` needs for `calls`, fail-closed: each call's `eth_estimateGas` in order
 * — a call that reverts alone (a swap whose approval is an earlier leg) is sized by
 * `eth_simulateV1` of the calls up to it, with headroom — times the chain's max fee per gas,
 * plus the value the calls send; and the wallet's balance. An RPC that is unset, slow or garbled
 * is `unavailable`; a call that reverts even after the earlier ones is `reverted`.
 *
 * @example
 * await sizeEvmGas(context, { owner, calls: [{ to: usdc, data, value: 0n }] })
 * // { status: 'ok', gasUnits: 46_000n, feePerGas, nativeRequired, nativeHeld }
 */
export async function sizeEvmGas(
  context: EvmContext,
  query: SizeEvmGasParameters,
): Promise<SizeEvmGasReturnType> {
  const owner = normalizeEvmAddress(query.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: must be an EVM address');
  if (!query.calls) {
    throw new InvalidChainInputError('calls', 'calls: EVM sizing sizes calls (to, data, value)');
  }
  const calls: EvmCall[] = query.calls.map((call, index) => {
    const to = normalizeEvmAddress(call.to);
    if (!to || !/^0x(?:[0-9a-fA-F]{2})*$/.test(call.data) || call.value < 0n) {
      throw new InvalidChainInputError(`calls.${index}`, `calls.${index}: not a call (to, data)`);
    }
    return { from: owner, to, data: call.data as Hex, value: call.value };
  });
  const what = `gas of ${calls.length} call(s) from ${owner} on ${context.label}`;
  const rpc = context.rpc;
  if (!rpc) return rpcNotConfigured(context, what);
  try {
    let gasUnits = 0n;
    for (const [index, call] of calls.entries()) {
      try {
        gasUnits += await rpc.estimateGas(call);
      } catch (error) {
        if (index === 0 || !isRevert(error)) throw error;
        const simulated = await rpc.simulateCalls(calls.slice(0, index + 1));
        const leg = simulated[index];
        if (!leg?.success) {
          return { status: 'reverted', legIndex: index, detail: `${what}: leg ${index} reverts` };
        }
        gasUnits += leg.gasUsed + (leg.gasUsed * SIMULATED_GAS_HEADROOM_BPS) / 10_000n;
      }
    }
    const [feePerGas, nativeHeld] = await Promise.all([rpc.maxFeePerGas(), rpc.getBalance(owner)]);
    const value = calls.reduce((total, call) => total + call.value, 0n);
    return {
      status: 'ok',
      gasUnits,
      feePerGas,
      nativeRequired: gasUnits * feePerGas + value,
      nativeHeld,
    };
  } catch (error) {
    if (isRevert(error)) {
      return { status: 'reverted', legIndex: 0, detail: `${what}: leg 0 reverts` };
    }
    return toUnavailable(error, what);
  }
}
