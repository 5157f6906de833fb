import { formatMicros } from '@yieldrouter/schemas';
import type { HarvestPositionResult, HarvestResult } from '@yieldrouter/schemas';
import type { HarvestParameters } from './harvest';
import { ZERO } from './measurePosition';

const ZERO_TOTALS = {
  grossYieldMicros: ZERO,
  protocolFeeMicros: ZERO,
  profitFeeMicros: ZERO,
  netYieldMicros: ZERO,
};

function total(positions: readonly HarvestPositionResult[], field: keyof typeof ZERO_TOTALS) {
  return formatMicros(positions.reduce((sum, position) => sum + BigInt(position[field]), 0n));
}

function totals(positions: readonly HarvestPositionResult[]) {
  return {
    grossYieldMicros: total(positions, 'grossYieldMicros'),
    protocolFeeMicros: total(positions, 'protocolFeeMicros'),
    profitFeeMicros: total(positions, 'profitFeeMicros'),
    netYieldMicros: total(positions, 'netYieldMicros'),
  };
}

/** The SPEC outcome from the positions' outcomes (Harvest outcomes table). */
export function summarizeHarvest(
  parameters: Pick<HarvestParameters, 'broadcastEnabled' | 'now'>,
  wallet: string,
  positions: readonly HarvestPositionResult[],
): HarvestResult {
  const base = { wallet, positions: [...positions], asOf: parameters.now.toISOString() };
  const prepared = positions.filter((position) => position.outcome === 'prepared');
  if (prepared.length > 0) {
    const chains = [...new Set(prepared.map((position) => position.chain))];
    const off = chains.filter((chain) => !parameters.broadcastEnabled(chain));
    return {
      ...base,
      mode: 'prepare_only',
      outcome: 'prepared',
      reason:
        off.length > 0
          ? `broadcast_disabled: ${off.join(', ')}; nothing was booked`
          : 'owner_signature_required: the service holds no keys; nothing was booked',
      ...totals(prepared),
      prepared: true,
      httpStatus: 202,
    };
  }
  const harvested = positions.filter((position) => position.outcome === 'harvested');
  if (harvested.length > 0) {
    return {
      ...base,
      mode: 'compound',
      outcome: 'harvested',
      ...totals(harvested),
      httpStatus: 200,
    };
  }
  const unavailable = positions.find((position) => position.outcome === 'unavailable');
  if (unavailable) {
    return {
      ...base,
      mode: 'harvest',
      outcome: 'unavailable',
      reason: unavailable.reason ?? 'yield_source_unavailable',
      ...ZERO_TOTALS,
      httpStatus: 200,
    };
  }
  return {
    ...base,
    mode: 'no_op_harvest',
    outcome: 'blocked',
    reason: positions.length === 0 ? 'nothing_staked' : 'no_yield',
    ...ZERO_TOTALS,
    httpStatus: 200,
  };
}
