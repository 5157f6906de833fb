import { bpsOf } from './bpsOf';
import { FeeError } from './errors';
import { MAX_YIELD_SKIM_BPS, defaultFeeSchedule } from './feeSchedule';

export interface ComputeYieldSkimParameters {
  readonly grossYieldMicros: bigint;
  /** Defaults to the published skim (500 bps); at most MAX_YIELD_SKIM_BPS (1000). */
  readonly skimBps?: number;
}

export interface ComputeYieldSkimReturnType {
  readonly grossYieldMicros: bigint;
  readonly skimMicros: bigint;
  readonly netMicros: bigint;
}

/**
 * Splits harvested yield into the protocol skim (rounded down) and the remainder.
 * `skimMicros + netMicros === grossYieldMicros` always. A skim above the on-chain registries'
 * maximum (1000 bps) throws FeeError (field `skimBps`): no chain would collect it.
 *
 * @example
 * computeYieldSkim({ grossYieldMicros: 1_000_000n }) // { skimMicros: 50_000n, netMicros: 950_000n, … }
 */
export function computeYieldSkim({
  grossYieldMicros,
  skimBps = defaultFeeSchedule.yieldSkimBps,
}: ComputeYieldSkimParameters): ComputeYieldSkimReturnType {
  assertYieldSkimBps(skimBps);
  const skimMicros = bpsOf(grossYieldMicros, skimBps);
  return { grossYieldMicros, skimMicros, netMicros: grossYieldMicros - skimMicros };
}

/** Throws FeeError (field `skimBps`) for a skim the on-chain registries would refuse. */
export function assertYieldSkimBps(skimBps: number | bigint): void {
  if (typeof skimBps === 'number' && !Number.isInteger(skimBps)) {
    throw new FeeError('skimBps must be an integer number of bps', { field: 'skimBps' });
  }
  if (BigInt(skimBps) < 0n || BigInt(skimBps) > BigInt(MAX_YIELD_SKIM_BPS)) {
    throw new FeeError(`skimBps must be between 0 and ${MAX_YIELD_SKIM_BPS} bps`, {
      field: 'skimBps',
    });
  }
}
