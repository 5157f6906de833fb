import type { FeeSchedule } from '@yieldrouter/fees';
import type { ChainEnablement, ExecutionMode, StatusDocument } from '@yieldrouter/schemas';
import { API_VERSION, EXECUTABLE_CHAINS, MAP_CHAINS } from '@yieldrouter/schemas';

export interface BuildStatusDocumentParameters {
  readonly enablement: readonly ChainEnablement[];
  readonly fees: FeeSchedule;
  readonly venueIds: readonly string[];
}

const modeRank: Record<ExecutionMode, number> = {
  disabled: 0,
  owner_sign_prepare: 1,
  broadcast: 2,
};

/** The status document (also served as readiness). */
export function buildStatusDocument({
  enablement,
  fees,
  venueIds,
}: BuildStatusDocumentParameters): StatusDocument {
  const executionMode = enablement.reduce<ExecutionMode>(
    (best, chain) => (modeRank[chain.executionMode] > modeRank[best] ? chain.executionMode : best),
    'disabled',
  );
  return {
    schemaVersion: 'svc-status.v1',
    apiVersion: API_VERSION,
    phase: 'phase-1',
    launchHomes: { executable: [...EXECUTABLE_CHAINS], map: [...MAP_CHAINS] },
    protocolYieldSkimBps: fees.yieldSkimBps,
    principalFeeBps: fees.principalFeeBps,
    depositFeeBps: fees.depositFeeBps,
    withdrawFeeBps: fees.withdrawFeeBps,
    harvestProfitFeeBps: fees.harvestProfitFee.bps,
    harvestProfitFeeEnabled: fees.harvestProfitFee.enabled,
    executionEnabled: enablement.some((chain) => chain.executionEnabled),
    broadcastEnabled: enablement.some((chain) => chain.broadcastEnabled),
    executionMode,
    chains: [...enablement],
    venueIds: [...venueIds],
  };
}
