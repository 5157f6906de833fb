import type { Chain, ChainEnablement, ChainSwitches, ExecutionMode } from '@yieldrouter/schemas';
import { Chain as ChainEnum, isMapChain } from '@yieldrouter/schemas';

/**
 * Chains whose write adapters are live: they build owner-sign legs, check owner-signed bytes
 * against them, broadcast (behind the switches) and settle from receipts. The Map chains (Base,
 * Arbitrum) are not among them until an explicit go.
 */
export const WRITE_READY_CHAINS: ReadonlySet<Chain> = new Set<Chain>(['sui', 'solana']);

export interface BuildEnablementParameters {
  readonly switches: ChainSwitches;
  /** Chains whose write adapters are live (`WRITE_READY_CHAINS` in the service). */
  readonly writeReadyChains: ReadonlySet<Chain>;
}

/** Enablement of every chain, derived from configuration; Map chains never broadcast. */
export function buildEnablement({
  switches,
  writeReadyChains,
}: BuildEnablementParameters): ChainEnablement[] {
  return ChainEnum.options.map((chain) => {
    const map = isMapChain(chain);
    const { executionEnabled, broadcastEnabled } = switches[chain];
    const writeReady = !map && writeReadyChains.has(chain);
    const reasons: string[] = [];
    if (map) reasons.push('Map chain: discovery and prepare only until an explicit go.');
    if (!writeReady) reasons.push('Write adapters are not live for this chain.');
    if (!executionEnabled) reasons.push('Execution is off in this environment.');
    if (!broadcastEnabled) reasons.push('Server broadcast is off; the owner submits.');
    const executionMode: ExecutionMode = !executionEnabled
      ? 'disabled'
      : broadcastEnabled && writeReady
        ? 'broadcast'
        : 'owner_sign_prepare';
    return {
      chain,
      home: map ? 'map' : 'executable',
      label: map ? 'Map' : 'Executable',
      executionEnabled,
      broadcastEnabled: !map && broadcastEnabled,
      writeReady,
      liveMoneyPath: writeReady && executionEnabled,
      executionMode,
      reasons,
    };
  });
}
