import { bpsOf } from './bpsOf';
import { defaultFeeSchedule } from './feeSchedule';

export interface ComputeYieldSkimParameters {
  readonly grossYieldMicros: bigint;
  /** Defaults to the published skim (500 bps). */
  readonly skimBps?: number;
}

export interface ComputeYieldSkimReturnType {
  readonly grossYieldMicros: bigint;
  readonly skimMicros: bigint;
  readonly netMicros: bigint;
}

/**
 * Splits harvested yield into the protocol skim (rounded down) and the remainder.
 * `skimMicros + netMicros === grossYieldMicros` always.
 *
 * @example
 * computeYieldSkim({ grossYieldMicros: 1_000_000n }) // { skimMicros: 50_000n, netMicros: 950_000n, … }
 */
export function computeYieldSkim({
  grossYieldMicros,
  skimBps = defaultFeeSchedule.yieldSkimBps,
}: ComputeYieldSkimParameters): ComputeYieldSkimReturnType {
  const skimMicros = bpsOf(grossYieldMicros, skimBps);
  return { grossYieldMicros, skimMicros, netMicros: grossYieldMicros - skimMicros };
}
