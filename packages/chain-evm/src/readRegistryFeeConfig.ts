import type { Unavailable } from '@yieldrouter/schemas';
import { svcRegistryAbi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { toUnavailable } from './toUnavailable';

/** The registry's fee configuration, in basis points, as the chain reports it. */
export type RegistryFeeConfig =
  | {
      readonly status: 'ok';
      readonly yieldSkimBps: number;
      readonly depositFeeBps: number;
      readonly maxYieldSkimBps: number;
    }
  | Unavailable;

/**
 * `feeConfig()` of our registry (SPEC: 500 / 0 / 1000). Unset registry address →
 * `asset_not_configured`; a reading that breaks `skim <= max <= 10000` → `rpc_bad_response`.
 *
 * @example
 * await readRegistryFeeConfig(context)
 * // { status: 'ok', yieldSkimBps: 500, depositFeeBps: 0, maxYieldSkimBps: 1000 }
 */
export async function readRegistryFeeConfig(context: EvmContext): Promise<RegistryFeeConfig> {
  const what = `registry fee configuration on ${context.label}`;
  if (!context.registry) {
    return {
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${what}: no registry address is configured`,
    };
  }
  if (!context.rpc) return rpcNotConfigured(context, what);
  try {
    const [yieldSkimBps, depositFeeBps, maxYieldSkimBps] = await callView(
      context.rpc,
      context.registry,
      svcRegistryAbi,
      'feeConfig',
      [],
    );
    if (yieldSkimBps > maxYieldSkimBps || maxYieldSkimBps > 10_000 || depositFeeBps > 10_000) {
      return {
        status: 'unavailable',
        reason: 'rpc_bad_response',
        detail: `${what}: ${yieldSkimBps}/${depositFeeBps}/${maxYieldSkimBps} bps is not a valid configuration`,
      };
    }
    return { status: 'ok', yieldSkimBps, depositFeeBps, maxYieldSkimBps };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
