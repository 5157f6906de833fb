import { bpsOf } from './bpsOf';
import { computeYieldSkim } from './computeYieldSkim';
import type { FeeSchedule } from './feeSchedule';
import { defaultFeeSchedule } from './feeSchedule';

export interface ComputeHarvestFeesParameters {
  readonly grossYieldMicros: bigint;
  readonly schedule?: FeeSchedule;
}

export interface ComputeHarvestFeesReturnType {
  readonly grossYieldMicros: bigint;
  /** The yield skim, sent to protocol fees. */
  readonly protocolFeeMicros: bigint;
  /** The harvest profit fee; 0 while switched off. */
  readonly profitFeeMicros: bigint;
  /** What is compounded for the wallet. */
  readonly netYieldMicros: bigint;
}

/**
 * Fees of one harvest. The skim is taken first; the profit fee, when switched on, applies to
 * what remains after the skim and is capped per harvest, so it never exceeds that remainder.
 * `protocolFee + profitFee + netYield === grossYield`.
 *
 * @example
 * computeHarvestFees({ grossYieldMicros: 2_000_000n })
 * // { protocolFeeMicros: 100_000n, profitFeeMicros: 0n, netYieldMicros: 1_900_000n, … }
 */
export function computeHarvestFees({
  grossYieldMicros,
  schedule = defaultFeeSchedule,
}: ComputeHarvestFeesParameters): ComputeHarvestFeesReturnType {
  const skim = computeYieldSkim({ grossYieldMicros, skimBps: schedule.yieldSkimBps });
  const fee = schedule.harvestProfitFee;
  const uncapped = fee.enabled ? bpsOf(skim.netMicros, fee.bps) : 0n;
  const profitFeeMicros = uncapped > fee.capMicros ? fee.capMicros : uncapped;
  return {
    grossYieldMicros,
    protocolFeeMicros: skim.skimMicros,
    profitFeeMicros,
    netYieldMicros: skim.netMicros - profitFeeMicros,
  };
}
